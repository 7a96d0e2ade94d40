//! Every HTML page Agon writes comes from here: minijinja templates that extend one layout, so
//! the report, the ladder page and the match viewer share their head and style, and everything
//! a team wrote (names, refusals, a bot's text) is escaped by the template engine, never by hand.
//!
//! | template      | page                                                                   |
//! |---------------|------------------------------------------------------------------------|
//! | `layout.html` | the document, its head and the shared style; the others extend it     |
//! | `standings_layout.html` | what the two standings pages add to it: they reload themselves, and their tables' style |
//! | `report.html` | `report.html` of a tournament (`grading::html`)                        |
//! | `ladder.html` | `ladder.html` of a ladder, which reloads itself (`ladder::standings`)  |
//! | `viewer.html` | one match's viewer page, with its own style and scripts (`view`)       |
//! | `portal_*.html` | the course portal's standings, team, sign-in and message pages (`portal::web`) |

use minijinja::{Environment, Value};
use std::sync::OnceLock;

const TEMPLATES: [(&str, &str); 9] = [
    ("layout.html", include_str!("layout.html")),
    (
        "standings_layout.html",
        include_str!("standings_layout.html"),
    ),
    ("report.html", include_str!("report.html")),
    ("ladder.html", include_str!("ladder.html")),
    ("viewer.html", include_str!("viewer.html")),
    (
        "portal_standings.html",
        include_str!("portal_standings.html"),
    ),
    ("portal_team.html", include_str!("portal_team.html")),
    ("portal_message.html", include_str!("portal_message.html")),
    ("portal_signin.html", include_str!("portal_signin.html")),
];

fn environment() -> &'static Environment<'static> {
    static ENVIRONMENT: OnceLock<Environment<'static>> = OnceLock::new();
    ENVIRONMENT.get_or_init(|| {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("the page template {name} parses: {e}"));
        }
        env.set_formatter(visible_and_escaped);
        env
    })
}

/// How every value is written into a page: text from outside with its invisible direction
/// characters shown as `\u{202e}` (a name that reverses the text around it cannot pass for
/// another), then escaped. Text the templates mark safe (Agon's own scripts and
/// styles) is written as it is.
fn visible_and_escaped(
    out: &mut minijinja::Output<'_>,
    state: &minijinja::State<'_, '_>,
    value: &Value,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if !value.is_safe() && text.chars().any(crate::console::is_invisible_format) => {
            let shown = crate::console::visible_format_chars(text);
            minijinja::escape_formatter(out, state, &Value::from(shown))
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// The inline scripts the templates hold as they are, with no value filled in (the pages'
/// own snippets), for the portal's Content-Security-Policy.
pub fn fixed_scripts() -> impl Iterator<Item = &'static str> {
    TEMPLATES.iter().flat_map(|(_, text)| {
        let mut rest: &'static str = text;
        std::iter::from_fn(move || loop {
            let start = rest.find("<script>")? + "<script>".len();
            let end = start + rest[start..].find("</script>")?;
            let body = &rest[start..end];
            rest = &rest[end..];
            if !body.contains("{{") && !body.contains("{%") {
                return Some(body);
            }
        })
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
    fn text_that_turns_itself_around_is_shown_for_what_it_is() {
        let page = render(
            "portal_message.html",
            context! { title => "evil\u{202E}os.exe", message => "a\u{2066}b" },
        )
        .unwrap();
        assert!(
            !page.contains('\u{202E}') && !page.contains('\u{2066}'),
            "{page}"
        );
        assert!(page.contains("evil\\u{202e}os.exe"), "{page}");
        let safe = Value::from_safe_string("\u{202E}".into());
        let joined = render("portal_message.html", context! { message => safe }).unwrap();
        assert!(joined.contains('\u{202E}'), "safe text is written as it is");
    }

    #[test]
    fn the_fixed_scripts_are_the_templates_own() {
        let scripts: Vec<&str> = fixed_scripts().collect();
        assert!(!scripts.is_empty());
        assert!(
            scripts.iter().all(|s| s.contains("time[data-ms]")),
            "{scripts:?}"
        );
    }

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
