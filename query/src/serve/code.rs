//! What went wrong with a request, for a program to tell apart: the `code`
//! beside the `error` message of every error answer. A status can have
//! several causes (a 404 is a board not served, a goal with no table, a
//! route that needs complete tables, or no such route); a code has one,
//! and one status.

use axum::http::StatusCode;

/// The cause of an error answer. Its name in JSON is [`Code::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// 400: a start or goal that does not parse as a board of the size asked.
    BadBoard,
    /// 400: a move list that does not read.
    BadMoves,
    /// 400: a parameter's value that is not one the route takes (a board
    /// size, metric, distance, count, seed or `within`), or two that do not
    /// go together.
    BadParameter,
    /// 400: a parameter the route needs is not given.
    MissingParameter,
    /// 400: a parameter the route does not read, an unknown or repeated
    /// one, or a query string that does not read.
    UnknownParameter,
    /// 400: not a request this server reads (not HTTP/1.1 or 1.0, or a
    /// `Host` missing or given twice).
    BadRequest,
    /// 403: a `Host` that names another machine.
    ForeignHost,
    /// 403: a request a page on another site made, not a link followed,
    /// from an origin `--allow-origin` does not name.
    CrossSite,
    /// 404: no database of the board size (and metric) asked is served.
    BoardNotServed,
    /// 404: the database has no table toward the goal asked.
    NoTableForGoal,
    /// 404: the route needs complete tables, and the board is served by
    /// pattern databases.
    NeedsCompleteTables,
    /// 404: no such page or route.
    NoSuchRoute,
    /// 405: a method other than GET or HEAD.
    MethodNotAllowed,
    /// 408: a request head that stopped arriving, or an answer not ready in
    /// time.
    RequestTimeout,
    /// 413: a request body.
    BodyTooLarge,
    /// 414: a query string, or a request line, too long.
    QueryTooLong,
    /// 422: the start cannot reach the goal.
    Unsolvable,
    /// 431: a request head too large.
    HeadTooLarge,
    /// 500: the database failed its checks.
    DamagedDatabase,
    /// 500: the server failed (a bug).
    Internal,
    /// 503: every turn for that kind of search is taken; ask again.
    Busy,
    /// 503: the search ran past the server's `--timeout`.
    TimedOut,
    /// 503: the client closed its side of the connection mid-search.
    ClientGone,
    /// 503: the server was told to stop (Ctrl-C) mid-search.
    Stopping,
}

impl Code {
    /// Every code, for the test of the guide's table.
    #[cfg(test)]
    pub const ALL: [Code; 24] = [
        Code::BadBoard,
        Code::BadMoves,
        Code::BadParameter,
        Code::MissingParameter,
        Code::UnknownParameter,
        Code::BadRequest,
        Code::ForeignHost,
        Code::CrossSite,
        Code::BoardNotServed,
        Code::NoTableForGoal,
        Code::NeedsCompleteTables,
        Code::NoSuchRoute,
        Code::MethodNotAllowed,
        Code::RequestTimeout,
        Code::BodyTooLarge,
        Code::QueryTooLong,
        Code::Unsolvable,
        Code::HeadTooLarge,
        Code::DamagedDatabase,
        Code::Internal,
        Code::Busy,
        Code::TimedOut,
        Code::ClientGone,
        Code::Stopping,
    ];

    /// The name in the answer's `code`.
    pub fn name(self) -> &'static str {
        match self {
            Code::BadBoard => "bad_board",
            Code::BadMoves => "bad_moves",
            Code::BadParameter => "bad_parameter",
            Code::MissingParameter => "missing_parameter",
            Code::UnknownParameter => "unknown_parameter",
            Code::BadRequest => "bad_request",
            Code::ForeignHost => "foreign_host",
            Code::CrossSite => "cross_site",
            Code::BoardNotServed => "board_not_served",
            Code::NoTableForGoal => "no_table_for_goal",
            Code::NeedsCompleteTables => "needs_complete_tables",
            Code::NoSuchRoute => "no_such_route",
            Code::MethodNotAllowed => "method_not_allowed",
            Code::RequestTimeout => "request_timeout",
            Code::BodyTooLarge => "body_too_large",
            Code::QueryTooLong => "query_too_long",
            Code::Unsolvable => "unsolvable",
            Code::HeadTooLarge => "head_too_large",
            Code::DamagedDatabase => "damaged_database",
            Code::Internal => "internal",
            Code::Busy => "busy",
            Code::TimedOut => "timed_out",
            Code::ClientGone => "client_gone",
            Code::Stopping => "stopping",
        }
    }

    /// The answer's status.
    pub fn status(self) -> StatusCode {
        match self {
            Code::BadBoard
            | Code::BadMoves
            | Code::BadParameter
            | Code::MissingParameter
            | Code::UnknownParameter
            | Code::BadRequest => StatusCode::BAD_REQUEST,
            Code::ForeignHost | Code::CrossSite => StatusCode::FORBIDDEN,
            Code::BoardNotServed
            | Code::NoTableForGoal
            | Code::NeedsCompleteTables
            | Code::NoSuchRoute => StatusCode::NOT_FOUND,
            Code::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Code::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Code::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Code::QueryTooLong => StatusCode::URI_TOO_LONG,
            Code::Unsolvable => StatusCode::UNPROCESSABLE_ENTITY,
            Code::HeadTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            Code::DamagedDatabase | Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Code::Busy | Code::TimedOut | Code::ClientGone | Code::Stopping => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each code is named once, and the guide's table of codes lists each
    /// with its status.
    #[test]
    fn every_code_has_its_own_name_and_is_in_the_guide() {
        let names: std::collections::HashSet<_> = Code::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Code::ALL.len());
        let guide = include_str!("../../../docs/guide.md");
        for code in Code::ALL {
            let row = format!("| `{}` | {} |", code.name(), code.status().as_u16());
            assert!(guide.contains(&row), "the guide lacks the row {row:?}");
        }
    }
}
