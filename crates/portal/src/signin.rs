//! Signing in and out in a browser. The sign-in form is the one body the portal reads before
//! it knows whose request it is: a few hundred bytes (a name and a token), bounded by the
//! route's body limit and timeout like any page's.

use super::auth::{authorize, proven, session, team_of_path};
use super::refusal::Refusal;
use super::session::{cleared_cookie, Session};
use super::state::Portal;
use super::web::{page, same_origin};
use agon_ladder::events::unix_ms;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use serde::Deserialize;
use std::sync::Arc;

type Shared = State<Arc<Portal>>;

#[derive(Deserialize)]
pub struct Whom {
    #[serde(default)]
    team: String,
}

pub async fn page_for(State(_portal): Shared, Query(whom): Query<Whom>) -> Response {
    page(
        StatusCode::OK,
        "portal_signin.html",
        context! {
            title => "Sign in",
            engine => env!("CARGO_PKG_VERSION"),
            team => whom.team,
        },
    )
}

#[derive(Deserialize)]
pub struct Credentials {
    team: String,
    token: String,
}

/// Checks the token as the API does; a session cookie and the team's page if it holds.
pub async fn sign_in(State(portal): Shared, request: Request) -> Response {
    if !same_origin(request.headers()) {
        return Refusal::forbidden("the form was sent from another site".into()).into_page(None);
    }
    let extensions = request.extensions().clone();
    let credentials = match Form::<Credentials>::from_request(request, &()).await {
        Ok(Form(credentials)) => credentials,
        Err(e) => return Refusal::bad_request(e.body_text()).into_page(None),
    };
    let signed_in = team_of_path(&portal, credentials.team.trim())
        .and_then(|team| authorize(&portal, &team, Some(credentials.token.trim())).map(|()| team));
    let team = match signed_in {
        Ok(team) => team,
        Err(refusal) => return refusal.into_page(None),
    };
    let Ok(Some(token_hash)) = portal.store.token_hash(team.as_str()) else {
        return Refusal::unauthorized("the token has been revoked".into()).into_page(None);
    };
    proven(&extensions);
    let session = Session::new(&portal.key, team.clone(), &token_hash, unix_ms());
    with_cookie(
        Redirect::to(&format!("/teams/{team}")),
        &session.cookie(portal.secure_cookies),
    )
}

#[derive(Deserialize)]
pub struct SignOut {
    csrf: String,
}

pub async fn sign_out(State(portal): Shared, request: Request) -> Response {
    let Some(session) = session(&portal, request.headers()) else {
        return with_cookie(Redirect::to("/"), &cleared_cookie(portal.secure_cookies));
    };
    proven(request.extensions());
    let team = session.team.clone();
    let form = match Form::<SignOut>::from_request(request, &()).await {
        Ok(Form(form)) => form,
        Err(e) => return Refusal::bad_request(e.body_text()).into_page(Some(team.as_str())),
    };
    if !session.csrf_holds(&portal.key, &form.csrf) {
        let refusal = Refusal::forbidden("the form is not this session's".into());
        return refusal.into_page(Some(team.as_str()));
    }
    with_cookie(
        Redirect::to(&format!("/teams/{team}")),
        &cleared_cookie(portal.secure_cookies),
    )
}

fn with_cookie(redirect: Redirect, cookie: &str) -> Response {
    let mut response = redirect.into_response();
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}
