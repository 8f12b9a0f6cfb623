//! Shell completion as a user gets it: the scripts `proxydash completions SHELL` prints
//! carry the dynamic hook, `proxydash __complete` answers profiles from the config file
//! and the IDs a profile has last seen (written by the command line's reads and by
//! `watch`), quietly and with nothing when there is nothing; and the hook run in bash
//! (and zsh and fish, where they are installed) completes from it.

use crate::support::{proxydash_in, seed_json, temp_dir, write_seed};
use crate::watch::harness::Watch;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::Path;
use std::time::{Duration, Instant};

/// What a finished run left: status, standard output, standard error.
async fn run(home: &Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut cmd = proxydash_in(home);
    cmd.args(args).envs(env.iter().copied());
    let out = cmd.output().await.expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// `__complete ARGS…`, which must exit 0 and say nothing on standard error: its output.
async fn complete(home: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let all = [&["__complete"][..], args].concat();
    let (code, out, err) = run(home, &all, env).await;
    assert_eq!((code, err.as_str()), (Some(0), ""), "{args:?}: {out}");
    out
}

async fn sandbox_with(seed: Option<std::path::PathBuf>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        seed,
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

/// A config file (`0600`) in `home` with the profiles `main` (the default) and `shop`.
fn config(home: &Path, main: &SandboxHandle, shop: &SandboxHandle) {
    let dir = home.join("config/proxydash");
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "default_profile = \"main\"\n\n[profiles.main]\nbase_url = \"{}\"\ntoken = \"{}\"\n\n\
         [profiles.shop]\nbase_url = \"{}\"\ntoken = \"{}\"\n",
        main.base_url(),
        main.token(),
        shop.base_url(),
        shop.token()
    );
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

#[tokio::test]
async fn the_scripts_carry_the_dynamic_hook() {
    let home = temp_dir("completion-scripts");
    for (shell, hook) in [
        ("bash", "complete -F _proxydash_dynamic"),
        ("zsh", "_proxydash_static \"$@\""),
        (
            "fish",
            "complete -c proxydash -l profile -n __proxydash_dynamic",
        ),
    ] {
        let (code, script, _) = run(&home, &["completions", shell], &[]).await;
        assert_eq!(code, Some(0));
        assert!(script.contains("__complete line -- "), "{shell}");
        assert!(script.contains(hook), "{shell}: no {hook:?}");
        // clap's static part is still there: the subcommands.
        assert!(script.contains("refresh-list"), "{shell}");
    }
    let (_, zsh, _) = run(&home, &["completions", "zsh"], &[]).await;
    assert!(zsh.contains("\n_proxydash_static() {\n") && zsh.contains("\n_proxydash() {\n"));
    assert!(
        zsh.trim_end().ends_with("fi"),
        "clap's last lines stay last"
    );
    let (_, elvish, _) = run(&home, &["completions", "elvish"], &[]).await;
    assert!(!elvish.contains("__complete"), "elvish is static");
    let _ = std::fs::remove_dir_all(&home);
}

/// Nothing known: nothing printed, status 0, not a word on standard error; a config file
/// that does not read, or a FIFO at its name, changes nothing (and never blocks).
#[tokio::test]
async fn with_nothing_known_nothing_is_printed() {
    let home = temp_dir("completion-empty");
    for args in [
        &["services"][..],
        &["invoices", "--profile", "nope"],
        &["profiles"],
        &["line", "--", "proxydash", "service", ""],
        &["line", "--", "proxydash", "--profile", ""],
    ] {
        assert_eq!(complete(&home, args, &[]).await, "", "{args:?}");
    }
    // Where no profile or ID goes: status 1, so the script completes from clap's.
    let (code, out, err) = run(
        &home,
        &["__complete", "line", "--", "proxydash", "serv"],
        &[],
    )
    .await;
    assert_eq!((code, out.as_str(), err.as_str()), (Some(1), "", ""));
    let dir = home.join("config/proxydash");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "this is [not toml").unwrap();
    assert_eq!(complete(&home, &["profiles"], &[]).await, "");
    let fifo = home.join("fifo.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let fifo = fifo.to_string_lossy().into_owned();
        // A read of the FIFO would wait for a writer for ever: the limit only bounds that.
        let args = ["profiles", "--config", &fifo];
        let read = tokio::time::timeout(Duration::from_secs(60), complete(&home, &args, &[])).await;
        assert_eq!(read.expect("it waited on the FIFO"), "");
    }
    let _ = std::fs::remove_dir_all(&home);
}

/// After the lists were read, each profile's IDs (newest first, with their words), the
/// profiles with their URLs, the profile taken from the line, the variable or the file.
#[tokio::test]
async fn profiles_and_the_ids_a_profile_has_seen() {
    let home = temp_dir("completion-seen");
    let main = sandbox_with(None).await;
    let mut seed = seed_json();
    seed["products"][0]["name"] = "Shop Special".into();
    let shop = sandbox_with(Some(write_seed("completion-shop", &seed))).await;
    config(&home, &main, &shop);
    for list in ["services", "products", "invoices", "clients"] {
        let (code, _, err) = run(&home, &[list], &[]).await;
        assert_eq!(code, Some(0), "{list}: {err}");
    }
    let (code, _, err) = run(&home, &["services", "--profile", "shop"], &[]).await;
    assert_eq!(code, Some(0), "{err}");

    let profiles = complete(&home, &["profiles"], &[]).await;
    let urls = format!("main\t{}\nshop\t{}\n", main.base_url(), shop.base_url());
    assert_eq!(profiles, urls);
    let line = complete(
        &home,
        &["line", "--", "proxydash", "services", "--profile", "s"],
        &[],
    )
    .await;
    assert_eq!(line, urls, "every profile: the shell matches the word");
    let eq = complete(&home, &["line", "--", "proxydash", "--profile=s"], &[]).await;
    assert!(eq.starts_with("--profile=main\t"), "{eq}");

    let services = complete(&home, &["services"], &[]).await;
    let first = services.lines().next().unwrap_or_default();
    assert!(first.starts_with("1013\t"), "newest first: {services}");
    assert!(
        services.contains("1001\tDatacenter US 10 · Active\n"),
        "{services}"
    );
    let on_line = complete(&home, &["line", "--", "proxydash", "service", ""], &[]).await;
    assert_eq!(on_line, services);
    let shop_ids = complete(
        &home,
        &["line", "--", "proxydash", "--profile", "shop", "bind", ""],
        &[],
    )
    .await;
    assert!(
        shop_ids.contains("1001\tShop Special · Active\n"),
        "{shop_ids}"
    );
    let by_env = complete(&home, &["services"], &[("PROXYDASH_PROFILE", "shop")]).await;
    assert_eq!(by_env, shop_ids);
    let products = complete(&home, &["line", "--", "proxydash", "order", ""], &[]).await;
    assert!(
        products.contains("11\tDatacenter US 10 · $12.00\n"),
        "{products}"
    );
    let clients = complete(
        &home,
        &["line", "--", "proxydash", "order", "11", "--client", ""],
        &[],
    )
    .await;
    assert!(
        clients.contains("101\talice.nguyen@example.com\n"),
        "{clients}"
    );
    let invoices = complete(&home, &["line", "--", "proxydash", "invoice", "70"], &[]).await;
    assert!(
        invoices.lines().any(|l| l.starts_with("7001\t")),
        "{invoices}"
    );
    // The shop's invoices were never read.
    assert_eq!(
        complete(&home, &["invoices", "--profile", "shop"], &[]).await,
        ""
    );

    bash_completes(&home).await;
    zsh_completes(&home).await;
    fish_completes(&home).await;
    let _ = std::fs::remove_dir_all(&home);
}

/// Runs `script` in `shell` with the binary first on `PATH` and `home`'s config and
/// state; `None` when the shell is not installed.
async fn in_shell(home: &Path, shell: &str, script: &str) -> Option<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_proxydash")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = proxydash_in(home);
    let cmd = cmd.as_std_mut();
    let mut shell_cmd = tokio::process::Command::new(shell);
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => shell_cmd.env(k, v),
            None => shell_cmd.env_remove(k),
        };
    }
    let out = shell_cmd
        .env("PATH", path)
        .arg("-c")
        .arg(script)
        .output()
        .await;
    let out = match out {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("{shell} is not installed: its completion is not tried");
            return None;
        }
        Err(e) => panic!("{shell}: {e}"),
    };
    assert!(
        out.status.success(),
        "{shell}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// bash's completion function, called as readline calls it.
async fn bash_completes(home: &Path) {
    let script = r#"source <(proxydash completions bash)
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
      _proxydash_dynamic proxydash "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      echo "${COMPREPLY[*]}"; }
t proxydash service 100
t proxydash --profile s
t proxydash --profile = ""
t proxydash order 11 --client ""
t proxydash serv"#;
    let Some(out) = in_shell(home, "bash", script).await else {
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "1009 1008 1007 1006 1005 1004 1003 1002 1001",
        "{out}"
    );
    assert_eq!(lines[1], "shop");
    assert_eq!(lines[2], "main shop");
    assert_eq!(lines[3], "104 103 102 101");
    // Subcommands: clap's static completion.
    assert_eq!(lines[4], "services service");
}

/// zsh's `_proxydash`, with `_describe` standing in to print what it was given.
async fn zsh_completes(home: &Path) {
    let script = r#"compdef() { : }
source <(proxydash completions zsh)
_describe() { print -rl -- "${(@P)4}" }
_proxydash_static() { print "static" }
words=(proxydash invoice ""); CURRENT=3; _proxydash | head -1
words=(proxydash --profile ""); CURRENT=3; _proxydash
words=(proxydash serv); CURRENT=2; _proxydash"#;
    let Some(out) = in_shell(home, "zsh", script).await else {
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("7020:"), "{out}");
    assert!(
        lines[1].starts_with("main:http\\://127.0.0.1:") || lines[1].starts_with("main:http://"),
        "{out}"
    );
    assert_eq!(lines.last(), Some(&"static"), "{out}");
}

/// fish's own completion of a command line (`complete -C`).
async fn fish_completes(home: &Path) {
    let script = r#"proxydash completions fish | source
complete -C "proxydash service 100"
complete -C "proxydash --profile s"
complete -C "proxydash ser""#;
    let Some(out) = in_shell(home, "fish", script).await else {
        return;
    };
    assert!(out.contains("1001\tDatacenter US 10 · Active\n"), "{out}");
    assert!(!out.contains("1013\t"), "fish matched the prefix: {out}");
    assert!(out.contains("shop\thttp://"), "{out}");
    assert!(
        out.contains("service\t") && out.contains("services\t"),
        "{out}"
    );
}

/// `watch` keeps what its sweeps read too (the dashboard runs the same engine).
#[tokio::test(flavor = "multi_thread")]
async fn what_watch_reads_is_offered() {
    let dir = crate::watch::harness::dir("completion-watch");
    let sandbox = sandbox_with(None).await;
    let mut watch = Watch::start(&dir, &sandbox, &["-vv"]);
    watch.sweeps(1);
    let give_up = Instant::now() + Duration::from_secs(60);
    let ids = loop {
        let ids = complete(&dir, &["services"], &[]).await;
        if !ids.is_empty() || Instant::now() > give_up {
            break ids;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(ids.contains("1001\tDatacenter US 10 · Active\n"), "{ids:?}");
    let (code, _, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
