//! The headers every answer carries. Pages get a strict Content-Security-Policy: scripts only
//! from the portal itself or inline ones that Agon's own templates hold, nothing from
//! elsewhere, no framing, forms posting only back to the portal.
//!
//! The inline scripts allowed are hashed once, from the templates rendered with no outside
//! input (the viewer page of every game, the pages' own snippets), never from a page as
//! served: a script that some future bug let into a page is then not allowed, since it is in
//! no template.

use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The policy of every page.
pub fn page_policy() -> &'static str {
    static POLICY: OnceLock<String> = OnceLock::new();
    POLICY.get_or_init(|| {
        format!(
            "default-src 'none'; script-src 'self' {}; style-src 'unsafe-inline'; img-src \
             'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
            template_script_hashes().join(" ")
        )
    })
}

/// The policy for anything that is not a page (JSON, the viewer's data files).
pub const DATA_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// `'sha256-...'` of every inline script Agon's own pages hold.
fn template_script_hashes() -> Vec<String> {
    let registry = agon_games::registry::Registry::builtin();
    let mut pages: Vec<String> = registry
        .names()
        .iter()
        .filter_map(|game| agon_play::view::shared_page(&registry, game).ok())
        .collect();
    pages.extend(
        agon_play::pages::fixed_scripts().map(|script| format!("<script>{script}</script>")),
    );
    let mut hashes: Vec<String> = pages
        .iter()
        .flat_map(|page| inline_scripts(page).map(hash).collect::<Vec<_>>())
        .collect();
    hashes.sort();
    hashes.dedup();
    hashes
}

fn hash(script: &str) -> String {
    let digest = Sha256::digest(script.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The texts of the page's inline scripts (those a browser runs: no `src`, a script type).
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || loop {
        let start = rest.find("<script")?;
        let tag_end = start + rest[start..].find('>')?;
        let tag = &rest[start..tag_end];
        let body_start = tag_end + 1;
        let body_end = body_start + rest[body_start..].find("</script>")?;
        let body = &rest[body_start..body_end];
        rest = &rest[body_end..];
        let runs =
            !tag.contains(" src=") && (!tag.contains(" type=") || tag.contains("type=\"module\""));
        if runs {
            return Some(body);
        }
    })
}

/// The headers every answer carries, with `policy` as its own.
pub fn every_answer(policy: &str) -> [(&'static str, &str); 5] {
    [
        ("content-security-policy", policy),
        ("x-content-type-options", "nosniff"),
        // Not `no-referrer`: under it a browser sends `Origin: null` with the portal's own
        // forms, and the forms' origin is checked (`web::same_origin`).
        ("referrer-policy", "same-origin"),
        ("x-frame-options", "DENY"),
        // Team pages and the API change with every upload and game, and say who is signed in.
        ("cache-control", "no-store"),
    ]
}

/// Adds the headers every answer carries; `policy` is the answer's own.
pub fn secure(headers: &mut HeaderMap, policy: &str) {
    for (name, value) in every_answer(policy) {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
}

/// For every answer, whoever made it (an extractor's 400, the router's 405, a layer's 408 or
/// 413): the headers it lacks.
pub async fn secure_every_answer(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in every_answer(DATA_POLICY) {
        if !headers.contains_key(name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    // A framework's plain-text answer is not sniffed into anything else.
    if !headers.contains_key(header::CONTENT_TYPE) {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_templates_scripts_and_no_other() {
        let html = "<script type=\"application/octet-stream\" id=\"d\">DATA</script>\
                    <script>run()</script><script src=\"x.js\"></script>";
        let scripts: Vec<&str> = inline_scripts(html).collect();
        assert_eq!(scripts, ["run()"]);
        let policy = page_policy();
        assert!(policy.starts_with("default-src 'none'"), "{policy}");
        // Not a script of any template: never allowed, whatever page it appears in.
        assert!(!policy.contains(&hash("run()")), "{policy}");
        // Every inline script of a page the portal serves is.
        let registry = agon_games::registry::Registry::builtin();
        let viewer = agon_play::view::shared_page(&registry, "breakthrough").unwrap();
        let mut checked = 0;
        for script in inline_scripts(&viewer) {
            assert!(
                policy.contains(&hash(script)),
                "a viewer script is not allowed"
            );
            checked += 1;
        }
        assert!(checked >= 2, "{checked}");
        for script in agon_play::pages::fixed_scripts() {
            assert!(policy.contains(&hash(script)));
        }
    }
}
