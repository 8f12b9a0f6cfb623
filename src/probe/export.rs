//! Export templates: one line per working proxy, with `{ip}`, `{port}`, `{user}`, `{pass}`
//! and `{scheme}` filled in (verbatim: a template that builds a URL from a password holding
//! `@` gets what it asked for). Built in: `colon` (`{ip}:{port}:{user}:{pass}`), `url`
//! (`{scheme}://{user}:{pass}@{ip}:{port}`), `proxychains` (`{scheme} {ip} {port} {user}
//! {pass}`, a `[ProxyList]` line) and `curl` (`-x {scheme}://{user}:{pass}@{ip}:{port}`);
//! the profile may add its own (`[profiles.NAME.probe_templates]`), which come after them
//! and may not reuse their names.

use super::{ProbeResult, ProxyTarget};

/// The built-in templates, by name.
pub const BUILT_IN: [(&str, &str); 4] = [
    ("colon", "{ip}:{port}:{user}:{pass}"),
    ("url", "{scheme}://{user}:{pass}@{ip}:{port}"),
    ("proxychains", "{scheme} {ip} {port} {user} {pass}"),
    ("curl", "-x {scheme}://{user}:{pass}@{ip}:{port}"),
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub name: String,
    pub pattern: String,
}

/// The built-ins, then the user's (a user template named like a built-in is ignored).
pub fn all(user: &[(String, String)]) -> Vec<Template> {
    let mut out: Vec<Template> = BUILT_IN
        .iter()
        .map(|(n, p)| Template {
            name: (*n).into(),
            pattern: (*p).into(),
        })
        .collect();
    for (name, pattern) in user {
        if !out.iter().any(|t| &t.name == name) {
            out.push(Template {
                name: name.clone(),
                pattern: pattern.clone(),
            });
        }
    }
    out
}

/// A template by name, or `spec` itself when it holds a `{` (a pattern given inline).
pub fn find(spec: &str, templates: &[Template]) -> Option<String> {
    templates
        .iter()
        .find(|t| t.name == spec)
        .map(|t| t.pattern.clone())
        .or_else(|| spec.contains('{').then(|| spec.to_owned()))
}

pub fn line(pattern: &str, t: &ProxyTarget) -> String {
    pattern
        .replace("{ip}", &t.host)
        .replace("{port}", &t.port.to_string())
        .replace("{user}", t.login.as_deref().unwrap_or(""))
        .replace("{pass}", t.password.as_deref().unwrap_or(""))
        .replace("{scheme}", t.scheme.as_str())
}

/// One line per alive proxy, each ending in `\n`.
pub fn working<'a>(pattern: &str, results: impl IntoIterator<Item = &'a ProbeResult>) -> String {
    let mut out = String::new();
    for r in results.into_iter().filter(|r| r.verdict.is_alive()) {
        out.push_str(&line(pattern, &r.target));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::Scheme;

    #[test]
    fn every_built_in_fills_every_field() {
        let t = ProxyTarget {
            host: "127.0.0.10".into(),
            port: 8080,
            scheme: Scheme::Socks5,
            login: Some("u".into()),
            password: Some("p".into()),
        };
        let lines: Vec<String> = BUILT_IN.iter().map(|(_, p)| line(p, &t)).collect();
        assert_eq!(
            lines,
            [
                "127.0.0.10:8080:u:p",
                "socks5://u:p@127.0.0.10:8080",
                "socks5 127.0.0.10 8080 u p",
                "-x socks5://u:p@127.0.0.10:8080",
            ]
        );
        let user = all(&[
            ("mine".into(), "{user}@{ip}".into()),
            ("url".into(), "x".into()),
        ]);
        assert_eq!(user.len(), 5);
        assert_eq!(find("mine", &user).as_deref(), Some("{user}@{ip}"));
        assert_eq!(find("{ip}", &user).as_deref(), Some("{ip}"));
        assert_eq!(find("nope", &user), None);
    }
}
