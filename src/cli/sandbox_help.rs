//! The long help of `sandbox --faults` (docs/sandbox.md says the same with an example of
//! each kind).

/// `sandbox --help` on `--faults`: the syntax and every kind (docs/sandbox.md has more).
pub const FAULTS_HELP: &str = "Inject the failures a real network and proxy show, on a share of requests.\n\n\
SPEC is comma-separated items: KIND:RATE (RATE 0.1 or 10%), KIND (always), all:RATE (spread over \
every kind), seed=N (repeatable), slow-ms=N (how long `slow` waits, default 3000), path=PREFIX \
and method=M (only matching requests), none.\n\n\
Kinds (and whether the server acted on the request):\n\
  500-html     500 with an nginx-like HTML page (no)\n\
  502          502 Bad Gateway, HTML (no)\n\
  503          503, HTML, Retry-After: 1 (no)\n\
  truncated    the real answer with its body cut in half (yes)\n\
  wrong-shape  200 with {\"unexpected\":true} (yes)\n\
  empty        200 with an empty body (yes)\n\
  drop         the connection reset, no answer (no)\n\
  drop-after   the connection reset after the server acted (yes: the client cannot know)\n\
  slow         the real answer after slow-ms (yes)\n\
  hang         no answer ever (no)\n\n\
Examples:\n\
  --faults all:0.2\n\
  --faults 500-html:0.1,drop:0.05,seed=42\n\
  --faults drop-after,method=POST        (every order is carried out and its answer lost)\n\
  --faults slow:1,slow-ms=8000,path=/api/billing";
