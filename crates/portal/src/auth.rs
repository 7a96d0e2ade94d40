//! Who a request acts for: the team whose token it carries (`Authorization: Bearer`, for the
//! API) or whose session its cookie holds (browsers, after `/signin`). Nothing reads a body
//! before this is known, but for the sign-in form's few bytes. A request that proves a team
//! tells its connection so (`connections`): proven connections are never cut for a newcomer.
//! Staff commands are not served over HTTP at all (`agon portal team ...` on the machine).

use super::connections::Connection;
use super::refusal::Refusal;
use super::session::Session;
use super::state::Portal;
use super::team_name::TeamName;
use agon_ladder::events::unix_ms;
use axum::http::{header, Extensions, HeaderMap};
use std::sync::Arc;

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

/// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case, RFC 9110
/// §11.1).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

/// Lets `token` act for `team`: 401 without a valid token, 403 with another team's.
pub fn authorize(portal: &Portal, team: &TeamName, token: Option<&str>) -> Result<(), Refusal> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Err(Refusal::unauthorized(
            "no token: send the team's token (`Authorization: Bearer TOKEN`), or sign in".into(),
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
            "this token is another team's: a team acts for itself only".into(),
        )),
        None => Err(Refusal::unauthorized(
            "the token is wrong or has been revoked".into(),
        )),
    }
}

/// The session the request's cookie holds, if it is valid now.
pub fn session(portal: &Portal, headers: &HeaderMap) -> Option<Session> {
    let token_hash = |team: &str| portal.store.token_hash(team).ok().flatten();
    Session::of_request(headers, &portal.key, token_hash, unix_ms())
}

/// Whether the request acts for `team`, by its token or its session; a request that does
/// proves its connection.
pub fn acts_for(
    portal: &Portal,
    team: &TeamName,
    headers: &HeaderMap,
    extensions: &Extensions,
) -> bool {
    let by_token = bearer(headers).is_some_and(|t| authorize(portal, team, Some(t)).is_ok());
    let acts = by_token || session(portal, headers).is_some_and(|s| s.team == *team);
    if acts {
        proven(extensions);
    }
    acts
}

/// The request proved a team: its connection is held as authenticated from now on.
pub fn proven(extensions: &Extensions) {
    if let Some(connection) = extensions.get::<Arc<Connection>>() {
        connection.authenticated();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
            bearer(&headers).map(str::to_string)
        };
        for value in [
            "Bearer agon_1",
            "bearer agon_1",
            "BEARER   agon_1 ",
            "BeArEr agon_1",
        ] {
            assert_eq!(with(value).as_deref(), Some("agon_1"), "{value}");
        }
        for value in ["Basic agon_1", "Bearer", "Bearer ", "Beareragon_1"] {
            assert_eq!(with(value), None, "{value}");
        }
    }
}
