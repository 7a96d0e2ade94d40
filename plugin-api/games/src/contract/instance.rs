//! Built-in instances: the maps and puzzles a game ships with (its folder's `instances/`,
//! embedded by `build.rs`), named on the command line and in configurations by their file
//! name without the extension (`--param map=comp2019_04_8p`), so that they are found from any
//! folder, a clone of the repository or an installed `agon` alike. A value that names no
//! built-in instance is a path to a file of one's own.

/// One built-in instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instance {
    /// Its name: the file's name without its extension.
    pub name: &'static str,
    /// The map or puzzle, as its file holds it.
    pub text: &'static str,
}

/// The instance `value` names among `instances`. A value with a `/` or a `.` is always a path
/// (`./example` is the file, `example` the built-in map).
pub fn built_in(instances: &'static [Instance], value: &str) -> Option<&'static Instance> {
    if value.contains(['/', '.']) {
        return None;
    }
    instances.iter().find(|instance| instance.name == value)
}

/// The names of `instances`, for messages and listings.
pub fn names(instances: &[Instance]) -> String {
    let names: Vec<&str> = instances.iter().map(|i| i.name).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHIPPED: &[Instance] = &[
        Instance {
            name: "example",
            text: "a",
        },
        Instance {
            name: "other",
            text: "b",
        },
    ];

    #[test]
    fn a_name_finds_its_instance_and_a_path_never_does() {
        assert_eq!(built_in(SHIPPED, "example").map(|i| i.text), Some("a"));
        for path in ["./example", "example.map", "maps/example", "missing"] {
            assert_eq!(built_in(SHIPPED, path), None, "{path}");
        }
        assert_eq!(names(SHIPPED), "example, other");
    }
}
