//! The class of a request: who waits on its answer, a column of the endpoint table.

/// Who waits on a request's answer: the scheduler serves the lines in this order (a
/// row of the table names its class).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// A form's request or a write: the user is looking at a spinner.
    Waited = 0,
    /// One item's detail, opened or selected.
    Detail = 1,
    /// A tab's list, the credit.
    List = 2,
    /// The calls made once per service, in bulk.
    Sweep = 3,
}
