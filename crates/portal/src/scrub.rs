//! What the portal tells a client never names a place on the server: a refusal made deep in
//! the engine says which file it could not load, with the folders of the portal and its cache
//! (which would tell where the portal runs, and as whom). Every absolute path in a message is
//! shown as its file name alone.

/// `text` with every absolute path of two or more components replaced by its last one.
pub fn without_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('/') {
        let before = &rest[..start];
        let starts_a_word = before.chars().next_back().is_none_or(opens_a_path);
        let length = rest[start..]
            .find(|c: char| !in_a_path(c))
            .unwrap_or(rest.len() - start);
        let mut path = &rest[start..start + length];
        // Punctuation that ends a sentence is not part of the path.
        let trimmed = path.trim_end_matches([':', '.', ',', ';']);
        let trailing = &path[trimmed.len()..];
        path = trimmed;
        out.push_str(before);
        if starts_a_word && path.matches('/').count() >= 2 {
            let name = path.rsplit('/').find(|part| !part.is_empty()).unwrap_or("");
            out.push_str(if name.is_empty() { "…" } else { name });
        } else {
            out.push_str(path);
        }
        out.push_str(trailing);
        rest = &rest[start + length..];
    }
    out.push_str(rest);
    out
}

fn opens_a_path(c: char) -> bool {
    c.is_whitespace() || "([{\"'`=,:".contains(c)
}

fn in_a_path(c: char) -> bool {
    !c.is_whitespace() && !"\"'`()[]{}<>,;".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_files_but_no_folders() {
        for (message, shown) in [
            (
                "it does not load: /root/.cache/agon/plugins/ab12/red.so: invalid ELF header",
                "it does not load: red.so: invalid ELF header",
            ),
            (
                "cannot open `/srv/portal/builds/red.so` (No such file)",
                "cannot open `red.so` (No such file)",
            ),
            ("(/tmp/x/y/z/)", "(z)"),
            ("a path /var/lib/agon.", "a path agon."),
            ("moves a1/b2 and 3/4 stay", "moves a1/b2 and 3/4 stay"),
            ("one level /x stays", "one level /x stays"),
            ("nothing to do", "nothing to do"),
            ("é /é/ü/ö ü", "é ö ü"),
        ] {
            assert_eq!(without_paths(message), shown, "{message}");
        }
    }
}
