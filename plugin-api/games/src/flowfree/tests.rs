use super::*;

const SAMPLE: &str = "B__RO\r\n___Y_\r\n__Y__\r\n_RO_G\r\n_BG__";
const SAMPLE_SOLUTION: &str = "BRRRO\r\nBRYYO\r\nBRYOO\r\nBROOG\r\nBBGGG\r\n";

fn letters(text: &str) -> Vec<u8> {
    text.bytes().filter(|b| b.is_ascii_uppercase()).collect()
}

#[test]
fn parses_the_course_format() {
    let p = Puzzle::parse(SAMPLE).unwrap();
    assert_eq!((p.rows(), p.cols()), (5, 5));
    assert_eq!(p.letters(), b"BGORY");
    assert_eq!(p.render(), format!("{SAMPLE}\r\n"));
    assert_eq!(Puzzle::parse(&format!("{SAMPLE}\r\n")).unwrap(), p);
    assert_eq!(Puzzle::parse(&SAMPLE.replace("\r\n", "\n")).unwrap(), p);
}

#[test]
fn parse_errors_name_the_place() {
    let cases = [
        ("A_\r\n_", (2, 2), "1 cells, the first row 2"),
        ("A_A\r\n_B_", (2, 2), "letter B appears 1 time;"),
        ("AAA\r\n___", (1, 3), "letter A appears 3 times"),
        ("A_A\r\n_b_", (2, 2), "`b` is not a cell"),
        ("", (1, 1), "empty"),
        ("___", (1, 1), "no sources"),
    ];
    for (text, (line, column), problem) in cases {
        let e = Puzzle::parse(text).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e.problem.contains(problem), "{text:?}: {e}");
    }
}

#[test]
fn the_official_sample_answer_verifies() {
    let p = Puzzle::parse(SAMPLE).unwrap();
    let s = letters(SAMPLE_SOLUTION);
    assert_eq!(verify(&p, &s), Ok(()));
    assert_eq!(p.render_solution(&s), SAMPLE_SOLUTION);
}

#[test]
fn the_verifier_names_the_first_offending_cell() {
    let p = Puzzle::parse(SAMPLE).unwrap();
    let good = letters(SAMPLE_SOLUTION);
    let mut changed_source = good.clone();
    changed_source[0] = b'R';
    assert!(verify(&p, &changed_source)
        .unwrap_err()
        .contains("row 1, column 1: the source B"));
    let mut foreign = good.clone();
    foreign[1] = b'Z';
    assert!(verify(&p, &foreign)
        .unwrap_err()
        .contains("row 1, column 2: `Z`"));
    let mut broken = good.clone();
    broken[6] = b'Y'; // row 2, column 2 was R
    let e = verify(&p, &broken).unwrap_err();
    assert!(e.starts_with("row 1, column 2: R has 1 neighbour"), "{e}");
    assert!(verify(&p, &good[..24]).unwrap_err().contains("24 cells"));
}

#[test]
fn a_cell_apart_from_its_letters_path_is_found() {
    // A along the top; a 2x2 block of A inside a ring of B is not connected to A's sources.
    let p = Puzzle::parse("A__A\r\nB___\r\n____\r\n____\r\nB___").unwrap();
    let s = letters("AAAA\r\nBBBB\r\nBAAB\r\nBAAB\r\nBBBB");
    assert_eq!(super::verify::detached_cell(&p, &s), Some((9, b'A')));
    assert_eq!(
        super::verify::detached_cell(&Puzzle::parse(SAMPLE).unwrap(), &letters(SAMPLE_SOLUTION)),
        None
    );
}
