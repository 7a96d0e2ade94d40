//! An error as `agon: error:` says it: the error and its causes, each said once. Many of the
//! engine's errors name their cause in their own text (`FILE: cannot read the file: CAUSE`),
//! because they are also logged and recorded by themselves; anyhow's `{:#}` would then say the
//! cause again after them (`...: No such file or directory (os error 2): No such file or
//! directory (os error 2)`).

/// `error`'s text, then each cause in its chain that the text so far does not already say.
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[derive(Debug, thiserror::Error)]
    #[error("{path}: cannot read the file: {source}")]
    struct SaysItsCause {
        path: String,
        source: std::io::Error,
    }

    fn not_found() -> std::io::Error {
        std::io::Error::from(std::io::ErrorKind::NotFound)
    }

    #[test]
    fn a_cause_the_error_already_names_is_not_said_again() {
        let error = anyhow::Error::new(SaysItsCause {
            path: "bot.so".into(),
            source: not_found(),
        });
        assert_eq!(
            error_text(&error),
            format!("bot.so: cannot read the file: {}", not_found())
        );
        let wrapped = Err::<(), _>(error).context("--bot bot.so:x").unwrap_err();
        assert_eq!(
            error_text(&wrapped),
            format!(
                "--bot bot.so:x: bot.so: cannot read the file: {}",
                not_found()
            )
        );
    }

    #[test]
    fn a_cause_not_yet_said_follows_its_context() {
        let error = Err::<(), _>(not_found())
            .context("cannot write the record to game.json")
            .unwrap_err();
        assert_eq!(
            error_text(&error),
            format!("cannot write the record to game.json: {}", not_found())
        );
    }
}
