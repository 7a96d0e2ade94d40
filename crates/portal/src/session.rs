//! Browsers sign in once with their team's token and keep a session cookie (HttpOnly,
//! SameSite=Strict, Secure under TLS), so that a form never carries the token and no request
//! of a browser reaches a body before it is known whose it is.
//!
//! A session is signed, not stored: `TEAM.EXPIRES.SIGNATURE`, the signature over the team, the
//! expiry and the hash of the team's token now. Revoking or renewing the token ends every
//! session made with it, and the portal keeps nothing per session (its memory does not grow
//! with sign-ins). A form's CSRF token is a signature of the session.

use super::team_name::TeamName;
use super::token::TokenKey;
use axum::http::{header, HeaderMap};

pub const COOKIE: &str = "agon_session";
/// How long a session lasts.
const LIFETIME_SECONDS: u64 = 7 * 24 * 3600;

pub struct Session {
    pub team: TeamName,
    value: String,
}

impl Session {
    /// A new session of `team`, whose token's stored hash is `token_hash`.
    pub fn new(key: &TokenKey, team: TeamName, token_hash: &str, now_ms: u64) -> Session {
        let expires = (now_ms / 1000 + LIFETIME_SECONDS).to_string();
        let signature = key.sign("session", &[team.as_str(), &expires, token_hash]);
        let value = format!("{team}.{expires}.{signature}");
        Session { team, value }
    }

    /// The session a request's cookie holds, if it is valid now: `token_hash` gives the
    /// stored hash of a team's active token.
    pub fn of_request(
        headers: &HeaderMap,
        key: &TokenKey,
        token_hash: impl Fn(&str) -> Option<String>,
        now_ms: u64,
    ) -> Option<Session> {
        let value = cookie(headers, COOKIE)?;
        let mut fields = value.splitn(3, '.');
        let (team, expires, signature) = (fields.next()?, fields.next()?, fields.next()?);
        let team = TeamName::parse(team).ok()?;
        if expires.parse::<u64>().ok()? <= now_ms / 1000 {
            return None;
        }
        let hash = token_hash(team.as_str())?;
        key.verify("session", &[team.as_str(), expires, &hash], signature)
            .then(|| Session {
                team,
                value: value.to_string(),
            })
    }

    /// The `Set-Cookie` value that keeps this session in the browser.
    pub fn cookie(&self, secure: bool) -> String {
        format!(
            "{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict; Max-Age={LIFETIME_SECONDS}{}",
            self.value,
            if secure { "; Secure" } else { "" }
        )
    }

    /// The CSRF token this session's forms carry.
    pub fn csrf(&self, key: &TokenKey) -> String {
        key.sign("csrf", &[&self.value])
    }

    pub fn csrf_holds(&self, key: &TokenKey, given: &str) -> bool {
        key.verify("csrf", &[&self.value], given)
    }
}

/// The `Set-Cookie` value that ends a session in the browser.
pub fn cleared_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The value of cookie `name` among the request's `Cookie` headers.
fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn key() -> TokenKey {
        let dir = agon_engine::output_file::fresh_scratch("portal-session").unwrap();
        let key = TokenKey::load_or_create(&dir.join("key")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        key
    }

    fn request_with(cookie: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        headers
    }

    #[test]
    fn a_session_holds_until_it_expires_or_its_token_changes() {
        let key = key();
        let red = TeamName::parse("red").unwrap();
        let session = Session::new(&key, red, "hash-1", 1_000_000);
        let set = session.cookie(true);
        assert!(set.contains("HttpOnly; SameSite=Strict") && set.ends_with("; Secure"));
        assert!(!session.cookie(false).contains("Secure"));
        let value = set.split(';').next().unwrap();
        let headers = request_with(&format!("theme=dark; {value}"));
        let hash = |now: &'static str| move |_: &str| Some(now.to_string());
        let found = Session::of_request(&headers, &key, hash("hash-1"), 2_000_000).unwrap();
        assert_eq!(found.team.as_str(), "red");
        assert!(found.csrf_holds(&key, &session.csrf(&key)));
        assert!(!found.csrf_holds(&key, "00"));
        // A new token, a revoked team, an expired session, a forged one: none holds.
        assert!(Session::of_request(&headers, &key, hash("hash-2"), 2_000_000).is_none());
        assert!(Session::of_request(&headers, &key, |_| None, 2_000_000).is_none());
        let late = 1_000_000 + (LIFETIME_SECONDS + 1) * 1000;
        assert!(Session::of_request(&headers, &key, hash("hash-1"), late).is_none());
        let forged = value.replacen("red.", "blue.", 1);
        assert!(
            Session::of_request(&request_with(&forged), &key, hash("hash-1"), 2_000_000).is_none()
        );
        assert!(cleared_cookie(false).contains("Max-Age=0"));
    }
}
