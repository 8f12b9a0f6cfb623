use super::run::{Out, Stint, filter};
use super::{Jq, parse};

/// The filter's output over `json`, as a pipe gets it, or why it stopped.
fn run(code: &str, json: &str) -> Result<String, String> {
    run_capped(code, json, super::run::OUTPUT)
}

fn run_capped(code: &str, json: &str, cap: u64) -> Result<String, String> {
    let stint = Stint::new();
    let mut out = Out::new(Vec::new(), cap);
    let r = filter(code, json, false, &stint, &mut out);
    let text = String::from_utf8(out.into_inner()).unwrap();
    match r {
        Ok(()) => Ok(text),
        Err(why) => Err(format!("{text}|{}", why.message())),
    }
}

#[test]
fn strings_are_raw_and_the_rest_compact_json() {
    let json = r#"[{"id": 1, "name": "a \"b\"\tc"}, {"id": 2, "name": null}]"#;
    assert_eq!(run(".[].name", json).unwrap(), "a \"b\"\tc\nnull\n");
    assert_eq!(
        run(".[0]", json).unwrap(),
        "{\"id\":1,\"name\":\"a \\\"b\\\"\\tc\"}\n"
    );
    assert_eq!(run(".[] | .id", json).unwrap(), "1\n2\n");
    assert_eq!(run("empty", json).unwrap(), "");
    // Several documents one after the other: each is an input.
    assert_eq!(run(".a", "{\"a\": 1}\n{\"a\": \"x\"}").unwrap(), "1\nx\n");
}

#[test]
fn the_standard_library_is_there() {
    let json = r#"[{"s": "Active", "d": "2026-12-01", "p": 2.5}]"#;
    assert_eq!(
        run("map(select(.s | test(\"^Act\"))) | length", json).unwrap(),
        "1\n"
    );
    assert_eq!(run(".[0].p | floor", json).unwrap(), "2\n");
    assert_eq!(
        run(".[] | [.s, .d] | @csv", json).unwrap(),
        "\"Active\",\"2026-12-01\"\n"
    );
    let cells = r#"["a,\"b\"", 1.5, null, true, "t\tn\nb\\"]"#;
    assert_eq!(
        run("@csv", cells).unwrap(),
        "\"a,\"\"b\"\"\",1.5,,true,\"t\tn\nb\\\"\n"
    );
    assert_eq!(
        run("@tsv", cells).unwrap(),
        "a,\"b\"\t1.5\t\ttrue\tt\\tn\\nb\\\\\n"
    );
    assert!(run("{} | @csv", "null").is_err());
    assert_eq!(
        run(".[0].d | strptime(\"%Y-%m-%d\") | mktime", json).unwrap(),
        "1796083200\n"
    );
}

#[test]
fn a_bad_expression_says_what_and_where() {
    let e = parse(".[] | foo").unwrap_err();
    assert!(e.starts_with("undefined filter foo/0 at column 7:"), "{e}");
    assert!(e.ends_with("\n  .[] | foo\n        ^^^"), "{e}");
    let e = parse(".[] | (").unwrap_err();
    assert!(e.contains("expected"), "{e}");
    assert!(e.contains("the end of the expression"), "{e}");
    let e = parse("import \"x\" as x; .").unwrap_err();
    assert!(e.contains("cannot load x"), "{e}");
    assert!(parse("input").is_err());
    assert_eq!(parse(".a").unwrap(), Jq(".a".into()));
}

#[test]
fn errors_halts_and_the_output_before_them() {
    assert_eq!(
        run(".[] | .a", "[{\"a\": 1}, 2]").unwrap_err(),
        "1\n|--jq: cannot index 2 with \"a\""
    );
    assert_eq!(
        run("1, error(\"boom\")", "null").unwrap_err(),
        "1\n|--jq: boom"
    );
    assert_eq!(run("1, halt, 2", "null").unwrap(), "1\n");
    let e = run("halt_error(3)", "null").unwrap_err();
    assert!(e.ends_with("halted with status 3"), "{e}");
    let e = run(".", "{").unwrap_err();
    assert!(e.contains("does not read as JSON"), "{e}");
}

#[test]
fn the_output_is_capped() {
    let e = run_capped("repeat(\"xxxxxxxxx\")", "null", 1000).unwrap_err();
    assert!(
        e.ends_with("|--jq: the output reached 1000 bytes; stopped"),
        "{e}"
    );
    assert_eq!(
        e.lines().count(),
        101,
        "every whole line under the cap: {e}"
    );
}
