//! The headers every answer carries. Pages get a strict Content-Security-Policy: scripts only
//! from the portal itself or inline ones whose hash the policy names (the viewer's), nothing
//! from elsewhere, no framing, forms posting only back to the portal.

use axum::http::{header, HeaderMap, HeaderValue};
use base64::Engine;
use sha2::{Digest, Sha256};

/// The policy for a page whose HTML is `html`.
pub fn page_policy(html: &str) -> String {
    let hashes: Vec<String> = inline_scripts(html)
        .map(|script| {
            let digest = Sha256::digest(script.as_bytes());
            format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect();
    format!(
        "default-src 'none'; script-src 'self' {}; style-src 'unsafe-inline'; img-src 'self' \
         data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        hashes.join(" ")
    )
}

/// The policy for anything that is not a page (JSON, the viewer's data files).
pub const DATA_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

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

/// Adds the headers every answer carries; `policy` is the answer's own.
pub fn secure(headers: &mut HeaderMap, policy: &str) {
    let value = HeaderValue::from_str(policy).unwrap_or(HeaderValue::from_static(DATA_POLICY));
    headers.insert(header::CONTENT_SECURITY_POLICY, value);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_scripts_that_run_and_no_others() {
        let html = "<script type=\"application/octet-stream\" id=\"d\">DATA</script>\
                    <script>run()</script><script src=\"x.js\"></script>";
        let scripts: Vec<&str> = inline_scripts(html).collect();
        assert_eq!(scripts, ["run()"]);
        let policy = page_policy(html);
        let expected = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(b"run()"));
        assert!(policy.contains(&format!("'sha256-{expected}'")), "{policy}");
        assert!(policy.starts_with("default-src 'none'"), "{policy}");
    }
}
