//! Pairing one Swiss round: entrants in rank order, each paired with the best-ranked
//! entrant left that it may meet, searched depth first so that a pairing without a rematch is
//! found whenever one exists (within a bound on the search, far above what real fields need).
//! The bye, in a field of odd size, goes to the lowest-ranked entrant among those with the
//! fewest byes for which the rest can still be paired.

/// What the pairing knows of each entrant, in rank order (best first).
pub struct Standing {
    pub entrant: usize,
    pub byes: u32,
}

/// One round: the meetings, higher-ranked entrant first, and the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub meetings: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Whether two entrants may meet under a rule.
type Allowed<'a> = dyn Fn(&Standing, &Standing) -> bool + 'a;

/// Attempts of the depth-first search per round before it settles for a weaker rule: a field of
/// 200 in its ninth round needs a few hundred.
const SEARCH_BOUND: usize = 200_000;

/// Pairs `ranked`; `met(a, b)` says whether two entrants have met. When no pairing avoids a
/// rematch (late rounds of a small field), entrants are paired in rank order.
pub fn pair(ranked: &[Standing], met: &dyn Fn(usize, usize) -> bool) -> Round {
    let fewest_byes = ranked.iter().map(|s| s.byes).min().unwrap_or(0);
    let bye_candidates: Vec<Option<usize>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        (0..ranked.len())
            .rev()
            .filter(|&i| ranked[i].byes == fewest_byes)
            .map(Some)
            .collect()
    };
    let fresh = |a: &Standing, b: &Standing| !met(a.entrant, b.entrant);
    let any = |_: &Standing, _: &Standing| true;
    let rules: [&Allowed; 2] = [&fresh, &any];
    for allowed in rules {
        let mut budget = SEARCH_BOUND;
        for &bye in &bye_candidates {
            let mut used = vec![false; ranked.len()];
            if let Some(b) = bye {
                used[b] = true;
            }
            let mut meetings = Vec::new();
            if search(ranked, allowed, &mut used, &mut meetings, &mut budget) {
                return Round {
                    meetings: meetings
                        .into_iter()
                        .map(|(a, b)| (ranked[a].entrant, ranked[b].entrant))
                        .collect(),
                    bye: bye.map(|b| ranked[b].entrant),
                };
            }
            if budget == 0 {
                break;
            }
        }
    }
    unreachable!("any two entrants may meet under the last rule")
}

/// Pairs the first unused entrant with each allowed one below it in turn, depth first.
fn search(
    ranked: &[Standing],
    allowed: &Allowed<'_>,
    used: &mut [bool],
    meetings: &mut Vec<(usize, usize)>,
    budget: &mut usize,
) -> bool {
    let Some(top) = used.iter().position(|&u| !u) else {
        return true;
    };
    used[top] = true;
    for other in top + 1..ranked.len() {
        if used[other] || !allowed(&ranked[top], &ranked[other]) {
            continue;
        }
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        used[other] = true;
        meetings.push((top, other));
        if search(ranked, allowed, used, meetings, budget) {
            return true;
        }
        meetings.pop();
        used[other] = false;
    }
    used[top] = false;
    false
}
