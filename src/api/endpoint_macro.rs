//! The generator behind the endpoint table in [`super::request`]: one row per endpoint of
//! spec section 4 becomes everything that used to be spelled once per endpoint in seven
//! places (the request's variant, its path, method, label, read limit, list cap, body,
//! decoder, the words the status line uses, the typed result it yields, and the typed
//! method of [`super::ApiClient`] that sends it).
//!
//! A row reads:
//!
//! ```text
//! /// docs of the request variant
//! Stats(id: u64) => {
//!     method: "GET",
//!     label: "/api/stats/{id}",          // the spec's path pattern, for decode errors
//!     path: ["api", "stats", id],        // segments, unencoded; fields are in scope
//!     output: Vec<StatEntry>,            // what a 2xx body decodes to
//!     decode: |request, body| decode_list(request, &body),
//!     sends: json_body(…),               // optional: the body of a write
//!     read: 1 << 20,                     // the most of a 2xx answer that is read
//!     list: 3_660,                       // optional: the most entries of a list kept
//!     what: "Usage of service {id}",     // the status line's words (format string)
//!     client: /// 2: daily statistics…      // the typed method of `ApiClient`
//!         fn stats(service_id: u64) = Request::Stats(service_id),
//! }
//! ```
//!
//! A variant takes no parameters, one (`Name(field: Type)`), or several by name
//! (`Name { a: A, b: B }`); the typed result [`super::Loaded`] carries the same parameters,
//! in that order, followed by `Result<output, ApiError>`.
//!
//! `macro_rules!` rather than a trait per endpoint: the scheduler needs one value type
//! (`Request`, hashed and deduplicated in its queue) and the app one message type
//! (`Loaded`); a trait would still need both enums written by hand beside it.

macro_rules! endpoints {
    ($(
        $(#[$doc:meta])*
        $name:ident
        $(($id:ident: $idty:ty))?
        $({ $($(#[$fdoc:meta])* $field:ident: $fty:ty),+ $(,)? })?
        => {
            method: $method:literal,
            label: $label:literal,
            path: [$($seg:expr),+ $(,)?],
            output: $out:ty,
            decode: |$req:ident, $body:ident| $decode:expr,
            $(sends: $sends:expr,)?
            read: $read:expr,
            $(list: $cap:expr,)?
            what: $what:literal,
            client: $(#[$cdoc:meta])* fn $fname:ident($($arg:ident: $argty:ty),* $(,)?) = $ctor:expr
            $(,)?
        }
    )+) => {
        /// One request of spec section 4, by its endpoint and parameters.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Request {
            $( $(#[$doc])* $name $(($idty))? $({ $($(#[$fdoc])* $field: $fty),+ })?, )+
        }

        /// The answer to a [`Request`] on its own, one variant per endpoint (named after
        /// it). The app receives [`Loaded`], which cannot pair an answer with the wrong
        /// request; this is for callers that hold the request apart (tests, forms).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Response {
            $( $name($out), )+
        }

        /// A finished request: its parameters and its typed result, one variant per
        /// endpoint, so an answer can never be taken for another endpoint's.
        #[derive(Clone, Debug)]
        pub enum Loaded {
            $( $name($($idty,)? $($($fty,)+)? Result<$out, ApiError>), )+
        }

        #[allow(unused_variables)]
        impl Request {
            /// The HTTP method.
            pub fn method(&self) -> &'static str {
                match self { $( Request::$name { .. } => $method, )+ }
            }

            /// The endpoint's path pattern as the spec writes it, for decode errors.
            pub fn label(&self) -> &'static str {
                match self { $( Request::$name { .. } => $label, )+ }
            }

            /// Every endpoint's route, in the spec's order (a route read back from a file
            /// is one of these).
            pub const ROUTES: &'static [super::gate::Route] =
                &[$( super::gate::Route { method: $method, path: $label }, )+];

            /// The endpoint as a route: the scope a per-route limit counts in.
            pub fn route(&self) -> super::gate::Route {
                super::gate::Route { method: self.method(), path: self.label() }
            }

            pub(crate) fn segments(&self) -> Vec<String> {
                match self {
                    $( Request::$name $(($id))? $({ $($field),+ })? =>
                        vec![$( ($seg).to_string() ),+], )+
                }
            }

            /// What the request was for, in the user's words: `Services`, `Service 5001`.
            pub fn what(&self) -> String {
                match self {
                    $( Request::$name $(($id))? $({ $($field),+ })? => format!($what), )+
                }
            }

            /// The most of a 2xx answer that is read (see [`super::limits`]).
            pub fn max_body(&self) -> usize {
                match self { $( Request::$name { .. } => $read, )+ }
            }

            /// The most entries kept of the list this request answers; `None` for an
            /// answer that is not a list of records (see [`super::limits`]).
            pub fn list_cap(&self) -> Option<usize> {
                match self { $( Request::$name { .. } => [$($cap)?].first().copied(), )+ }
            }

            /// The body a write sends; `None` for a GET.
            pub(crate) fn body(&self) -> Option<Vec<u8>> {
                match self {
                    $( Request::$name $(($id))? $({ $($field),+ })? =>
                        [$($sends)?].into_iter().next(), )+
                }
            }

            /// What the client makes of a 2xx `body`: pure, so tests feed it any bytes.
            pub fn decode(&self, body: bytes::Bytes) -> Loaded {
                match self {
                    $( Request::$name $(($id))? $({ $($field),+ })? => {
                        let $req = self;
                        let $body = body;
                        let result: Result<$out, ApiError> = $decode;
                        Loaded::$name(
                            $(ToOwned::to_owned($id),)? $($(ToOwned::to_owned($field),)+)? result
                        )
                    } )+
                }
            }

            /// This request, answered with `error`.
            pub fn failed(&self, error: ApiError) -> Loaded {
                match self {
                    $( Request::$name $(($id))? $({ $($field),+ })? => Loaded::$name(
                        $(ToOwned::to_owned($id),)? $($(ToOwned::to_owned($field),)+)? Err(error)
                    ), )+
                }
            }
        }

        /// One typed method per endpoint, for callers that wait on one answer (the
        /// scripting commands, tests): the same sending and decoding as [`ApiClient::call`].
        #[allow(unused_variables)]
        impl ApiClient {
            $(
                $(#[$cdoc])*
                pub async fn $fname(&self, $($arg: $argty),*) -> Result<$out, ApiError> {
                    let request = $ctor;
                    let body = self.send(&request, request.body()).await?;
                    let Request::$name $(($id))? $({ $($field),+ })? = &request else {
                        unreachable!("built as this endpoint just above")
                    };
                    let $req = &request;
                    let $body = body;
                    $decode
                }
            )+
        }

        #[allow(unused_variables)]
        impl Loaded {
            /// The request this answers (a clone of its key).
            pub fn request(&self) -> Request {
                match self {
                    $( Loaded::$name($($id,)? $($($field,)+)? _) => Request::$name
                        $((ToOwned::to_owned($id)))?
                        $({ $($field: ToOwned::to_owned($field)),+ })?, )+
                }
            }

            pub fn error(&self) -> Option<&ApiError> {
                match self { $( Loaded::$name(.., result) => result.as_ref().err(), )+ }
            }

            /// How many entries a list answer kept; `None` for a failure or an answer that
            /// is not a list of records.
            pub fn kept(&self) -> Option<usize> {
                match self {
                    $( Loaded::$name(.., Ok(value)) => [$({ let _: usize = $cap; value.len() })?]
                        .first()
                        .copied(), )+
                    _ => None,
                }
            }

            /// The request and its answer apart, for callers that route by the request.
            pub fn into_parts(self) -> (Request, Result<Response, ApiError>) {
                match self {
                    $( Loaded::$name($($id,)? $($($field,)+)? result) => (
                        Request::$name $(($id))? $({ $($field),+ })?,
                        result.map(Response::$name),
                    ), )+
                }
            }

            /// A request and an answer built apart (tests, benches), paired; `None` if the
            /// answer is another endpoint's.
            pub fn pair(request: Request, result: Result<Response, ApiError>) -> Option<Loaded> {
                Some(match (request, result) {
                    $(
                        (
                            Request::$name $(($id))? $({ $($field),+ })?,
                            Ok(Response::$name(value)),
                        ) => Loaded::$name($($id,)? $($($field,)+)? Ok(value)),
                        (Request::$name $(($id))? $({ $($field),+ })?, Err(error)) =>
                            Loaded::$name($($id,)? $($($field,)+)? Err(error)),
                    )+
                    _ => return None,
                })
            }
        }
    };
}
