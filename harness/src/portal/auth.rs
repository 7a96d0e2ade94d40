//! Who may upload: the team whose token it is, to its own slot only. Staff commands are not
//! served over HTTP at all (`agon portal team ...` on the machine).

use super::refusal::Refusal;
use super::state::Portal;
use super::team_name::TeamName;
use axum::http::{header, HeaderMap};

/// The team a request's path names: 404 for a name that is no team's.
pub fn team_of_path(portal: &Portal, name: &str) -> Result<TeamName, Refusal> {
    let no_team = || Refusal::not_found(format!("no team is called `{name}`"));
    let team = TeamName::parse(name).map_err(|_| no_team())?;
    match portal.store.is_team(team.as_str()) {
        Ok(true) => Ok(team),
        Ok(false) => Err(no_team()),
        Err(e) => Err(Refusal::internal(e)),
    }
}

/// The token of an `Authorization: Bearer TOKEN` header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// Lets `token` act for `team`: 401 without a valid token, 403 with another team's.
pub fn authorize(portal: &Portal, team: &TeamName, token: Option<&str>) -> Result<(), Refusal> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Err(Refusal::unauthorized(
            "no token: send the team's token (`Authorization: Bearer TOKEN`, or the form's \
             token field)"
                .into(),
        ));
    };
    let stored = portal
        .store
        .token_hash(team.as_str())
        .map_err(Refusal::internal)?;
    if stored.is_some_and(|stored| portal.key.matches(token, &stored)) {
        return Ok(());
    }
    let owner = portal
        .store
        .team_with_hash(&portal.key.hash(token))
        .map_err(Refusal::internal)?;
    // Which team's it is stays unsaid: whoever holds a token they should not learns no more.
    match owner {
        Some(_) => Err(Refusal::forbidden(
            "this token is another team's: a team uploads to its own slot only".into(),
        )),
        None => Err(Refusal::unauthorized(
            "the token is wrong or has been revoked".into(),
        )),
    }
}
