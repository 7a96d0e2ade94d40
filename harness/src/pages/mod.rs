//! Every HTML page Agon writes comes from here: minijinja templates that extend one layout, so
//! the report, the ladder page and the match viewer share their head and style, and everything
//! a team wrote (names, refusals, a bot's text) is escaped by the template engine, never by hand.
//!
//! | template      | page                                                                   |
//! |---------------|------------------------------------------------------------------------|
//! | `layout.html` | the document, its head and the shared style; the others extend it     |
//! | `report.html` | `report.html` of a tournament (`grading::html`)                        |
//! | `ladder.html` | `ladder.html` of a ladder, which reloads itself (`ladder::standings`)  |
//! | `viewer.html` | one match's viewer page, with its own style and scripts (`view`)       |
//! | `portal_*.html` | the course portal's standings, team and message pages (`portal::web`) |

use minijinja::{Environment, Value};
use std::sync::OnceLock;

const TEMPLATES: [(&str, &str); 7] = [
    ("layout.html", include_str!("layout.html")),
    ("report.html", include_str!("report.html")),
    ("ladder.html", include_str!("ladder.html")),
    ("viewer.html", include_str!("viewer.html")),
    (
        "portal_standings.html",
        include_str!("portal_standings.html"),
    ),
    ("portal_team.html", include_str!("portal_team.html")),
    ("portal_message.html", include_str!("portal_message.html")),
];

fn environment() -> &'static Environment<'static> {
    static ENVIRONMENT: OnceLock<Environment<'static>> = OnceLock::new();
    ENVIRONMENT.get_or_init(|| {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("the page template {name} parses: {e}"));
        }
        env
    })
}

/// The page `template` (one of [`TEMPLATES`]) filled in from `context`.
pub fn render(template: &str, context: Value) -> Result<String, minijinja::Error> {
    environment().get_template(template)?.render(context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::context;

    #[test]
    fn every_template_renders_and_escapes_what_it_is_given() {
        for (name, _) in TEMPLATES {
            let page = render(name, context! { title => "<b>team</b>" }).unwrap();
            assert!(page.starts_with("<!DOCTYPE html>"), "{name}");
            assert!(page.contains("&lt;b&gt;team"), "{name}: {page}");
            assert!(!page.contains("<b>team"), "{name}");
        }
    }
}
