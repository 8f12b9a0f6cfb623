//! `proxydash completions SHELL`: the shell completion script of the whole command line.
//!
//! clap's static script (`clap_complete`) completes the subcommands and flags; for bash,
//! zsh and fish a hook is added before it that asks `proxydash __complete line -- WORDS…`
//! ([`super::complete`]) first: where the word is a profile or an ID, its answer (the
//! profiles of the config file, the IDs the profile has last seen, with a description in
//! zsh and fish) is what is offered; anywhere else (status 1) the static script goes on.
//!
//! Why not clap's dynamic completion (`CompleteEnv`, behind `unstable-dynamic`): its
//! protocol between the script and the binary is not stable yet, while a script the user
//! installed once must keep working with the next binary; the static script stays
//! complete if the binary is missing or fails, and the hook asks the binary only for the
//! words it knows. elvish and powershell get the static script alone.

use super::Cli;
use crate::script::{OutputArgs, Printed, Script, Session};
use clap_complete::Shell;

#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Printed the scripting subcommands' way (a closed pipe ends it quietly); asks no account.
impl Script for CompletionsArgs {
    fn output(&self) -> Option<&OutputArgs> {
        None
    }
    async fn print(&self, _: &mut Session<'_>) -> Printed {
        Ok(script(self.shell))
    }
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut command = Cli::command_line();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut command, "proxydash", &mut buf);
    let static_script = String::from_utf8_lossy(&buf).into_owned();
    match shell {
        Shell::Bash => format!("{static_script}\n{BASH}"),
        Shell::Zsh => zsh(&static_script),
        Shell::Fish => format!("{static_script}\n{FISH}"),
        _ => static_script,
    }
}

/// bash: `_proxydash_dynamic` in front of clap's `_proxydash`. Candidates are read line
/// by line (never through `compgen -W`, which would expand `$(…)` in a name); without
/// any, no file names are offered where an ID goes.
const BASH: &str = r#"# Profiles and IDs (what the profile last saw), asked of proxydash itself:
# `proxydash __complete line -- WORDS...` answers status 1 where it has nothing to say.
_proxydash_dynamic() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prog="${COMP_WORDS[0]}" out line
    [[ $prog == "~/"* ]] && prog="$HOME/${prog#\~/}"
    if out=$("$prog" __complete line -- "${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null); then
        COMPREPLY=()
        compopt +o default +o bashdefault 2>/dev/null
        while IFS= read -r line; do
            line="${line%%$'\t'*}"
            [[ -n $line && $line == "$cur"* ]] && COMPREPLY+=("$line")
        done <<< "$out"
        return 0
    fi
    _proxydash "$@"
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _proxydash_dynamic -o nosort -o bashdefault -o default proxydash
else
    complete -F _proxydash_dynamic -o bashdefault -o default proxydash
fi
"#;

/// zsh: clap's `_proxydash` becomes `_proxydash_static`, and `_proxydash` asks first.
/// The file works both ways zsh takes it: sourced, or as `_proxydash` in `$fpath`.
const ZSH: &str = r#"# Profiles and IDs (what the profile last saw), asked of proxydash itself:
# `proxydash __complete line -- WORDS...` answers status 1 where it has nothing to say.
_proxydash() {
    local -a _proxydash_values
    local _proxydash_out _proxydash_line _proxydash_prog="${words[1]/#\~/$HOME}"
    if _proxydash_out="$("$_proxydash_prog" __complete line -- "${(@)words[1,CURRENT]}" 2>/dev/null)"; then
        for _proxydash_line in "${(@f)_proxydash_out}"; do
            [[ -n $_proxydash_line ]] || continue
            if [[ $_proxydash_line == *$'\t'* ]]; then
                _proxydash_values+=("${${_proxydash_line%%$'\t'*}//:/\\:}:${_proxydash_line#*$'\t'}")
            else
                _proxydash_values+=("${_proxydash_line//:/\\:}")
            fi
        done
        _describe -t values 'value' _proxydash_values
        return
    fi
    _proxydash_static "$@"
}

"#;

/// clap's zsh script with its `_proxydash` renamed and [`ZSH`] before its last lines
/// (which call or register `_proxydash`).
fn zsh(static_script: &str) -> String {
    const DEFINED: &str = "\n_proxydash() {\n";
    const TAIL: &str = "if [ \"$funcstack[1]\" = \"_proxydash\" ]; then";
    match (static_script.find(DEFINED), static_script.rfind(TAIL)) {
        (Some(_), Some(tail)) => {
            let (body, tail) = static_script.split_at(tail);
            let body = body.replacen(DEFINED, "\n_proxydash_static() {\n", 1);
            format!("{body}{ZSH}{tail}")
        }
        // clap's script changed shape: the static completion alone, rather than a broken
        // one (the tests hold the hook to be there).
        _ => static_script.to_owned(),
    }
}

/// fish: a condition that asks proxydash (and keeps its answer for the candidates), on
/// the positional arguments and on each option that takes a profile or an ID.
const FISH: &str = r#"# Profiles and IDs (what the profile last saw), asked of proxydash itself:
# `proxydash __complete line -- WORDS...` answers status 1 where it has nothing to say.
function __proxydash_dynamic
    set -l tokens (commandline -opc) (commandline -ct)
    set -g __proxydash_dynamic_values (command $tokens[1] __complete line -- $tokens 2>/dev/null)
end
complete -c proxydash -n __proxydash_dynamic -f -a '(string join \n -- $__proxydash_dynamic_values)'
complete -c proxydash -l profile -n __proxydash_dynamic -f -r -a '(string join \n -- $__proxydash_dynamic_values)'
complete -c proxydash -l client -n __proxydash_dynamic -f -r -a '(string join \n -- $__proxydash_dynamic_values)'
complete -c proxydash -l service -n __proxydash_dynamic -f -r -a '(string join \n -- $__proxydash_dynamic_values)'
complete -c proxydash -l keep-bound -n __proxydash_dynamic -f -r -a '(string join \n -- $__proxydash_dynamic_values)'
"#;
