//! A game's result in words that name its entrants: games word their results by seat (`black
//! wins: ...`, `player 2 ranks first (...)`, the engine's `seat 1 (bot): timeout ...`), while
//! staff grade teams. The game's own words stay as the detail; a colour stays beside the name
//! (`Team Rocket (black) wins: ...`).

/// The result of a game whose seats were played by `names`: `reason` (the game's or the
/// engine's words), the winning seat and each seat's rank (empty for games without ranks).
pub fn named_result(
    reason: &str,
    winner: Option<usize>,
    ranks: &[usize],
    names: &[String],
) -> String {
    let detail = name_faulting_seat(reason, names);
    if names.len() < 2 {
        return detail;
    }
    if names.len() > 2 && ranks.len() == names.len() {
        let firsts: Vec<&str> = (0..ranks.len())
            .filter(|&seat| ranks[seat] == 1)
            .map(|seat| names[seat].as_str())
            .collect();
        let head = match firsts.as_slice() {
            [only] => format!("{only} ranks first"),
            _ => format!("{} share the first rank", firsts.join(", ")),
        };
        return format!("{head}: {}", without_rank_head(&detail));
    }
    match winner.and_then(|w| names.get(w)) {
        Some(name) => match side_wins(&detail) {
            Some((side, rest)) => format!("{name} ({side}) wins{rest}"),
            None => format!("{name} wins: {}", without_rank_head(&detail)),
        },
        None => detail,
    }
}

/// The engine's fault reasons open with `seat N (bot): `; the seat becomes its entrant's name.
fn name_faulting_seat(reason: &str, names: &[String]) -> String {
    let Some(rest) = reason.strip_prefix("seat ") else {
        return reason.to_string();
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let (number, after) = rest.split_at(digits);
    let name = number
        .parse::<usize>()
        .ok()
        .and_then(|seat| names.get(seat));
    match (name, after.strip_prefix(" (")) {
        (Some(name), Some(bot)) => format!("{name} (seat {number}, {bot}"),
        _ => reason.to_string(),
    }
}

/// `white wins: ...` as (`white`, `: ...`): a result that names the winning side by a word of
/// its own, which the report keeps beside the entrant's name.
fn side_wins(detail: &str) -> Option<(&str, &str)> {
    let (side, rest) = detail.split_once(" wins")?;
    let is_word = !side.is_empty() && side.chars().all(|c| c.is_alphabetic());
    let is_side = is_word && !matches!(side, "player" | "seat" | "draw");
    (is_side && (rest.is_empty() || rest.starts_with(':'))).then_some((side, rest))
}

/// `player 2 ranks first (stones 3-10-2)` as `stones 3-10-2`: the head says by seat number what
/// the report's head says by name.
fn without_rank_head(detail: &str) -> &str {
    let heads = [" ranks first (", " share the first rank ("];
    if !detail.starts_with("player") {
        return detail;
    }
    heads
        .iter()
        .find_map(|head| {
            let (_, inner) = detail.split_once(head)?;
            inner.strip_suffix(')')
        })
        .unwrap_or(detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_side_that_wins_is_named_by_its_entrant_and_keeps_its_colour() {
        let teams = names(&["Team Rocket", "Team Aqua"]);
        assert_eq!(
            named_result(
                "black wins: reached the opponent's home row",
                Some(1),
                &[],
                &teams
            ),
            "Team Aqua (black) wins: reached the opponent's home row"
        );
        assert_eq!(
            named_result("white wins", Some(0), &[], &teams),
            "Team Rocket (white) wins"
        );
    }

    #[test]
    fn a_forfeit_names_the_winner_and_the_faulting_entrant() {
        let teams = names(&["Team Rocket", "Team Aqua"]);
        assert_eq!(
            named_result(
                "seat 1 (random): timeout at ply 3: took 1200 ms; forfeits",
                Some(0),
                &[],
                &teams
            ),
            "Team Rocket wins: Team Aqua (seat 1, random): timeout at ply 3: took 1200 ms; forfeits"
        );
    }

    #[test]
    fn ranked_games_name_their_first_ranks() {
        let teams = names(&["A", "B", "C"]);
        assert_eq!(
            named_result(
                "player 2 ranks first (stones 3-10-2)",
                Some(1),
                &[2, 1, 3],
                &teams
            ),
            "B ranks first: stones 3-10-2"
        );
        assert_eq!(
            named_result(
                "players 1, 3 share the first rank (stones 5-2-5)",
                None,
                &[1, 3, 1],
                &teams
            ),
            "A, C share the first rank: stones 5-2-5"
        );
        let duel = names(&["A", "B"]);
        assert_eq!(
            named_result("player 1 ranks first (stones 9-4)", Some(0), &[1, 2], &duel),
            "A wins: stones 9-4"
        );
    }

    #[test]
    fn draws_and_puzzles_keep_their_words() {
        let teams = names(&["A", "B"]);
        assert_eq!(
            named_result("draw: move limit reached", None, &[], &teams),
            "draw: move limit reached"
        );
        assert_eq!(
            named_result("solved", Some(0), &[], &names(&["A"])),
            "solved"
        );
        assert_eq!(
            named_result("seat 7 (x): crash", Some(0), &[], &teams),
            "A wins: seat 7 (x): crash"
        );
    }
}
