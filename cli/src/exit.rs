//! How `ruckus` ends: one exit code per class of failure, and the one-line error it prints.

use ruckus_one_runtime::Error;

/// The exit codes, documented in `ruckus schema` and `ruckus --help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    Ok,
    /// Anything not below: a transport error, a server error, a bad answer.
    Other,
    /// A bad command line: unknown command or flag, a missing or contradicting value.
    Usage,
    /// No credentials, or the token service refused them (401, 403).
    Auth,
    /// The service answered 404.
    NotFound,
    /// Still rate limited (429) after the retries.
    RateLimited,
    /// An asynchronous write's activity failed (or did not end in time).
    ActivityFailed,
    /// `ruckus plan` found changes to make (not a failure: nothing is printed for it).
    Changes,
    /// Standard output was closed by its reader (`| head -1`): 128 + SIGPIPE, as a shell
    /// reports a program a closed pipe ended; nothing is printed for it.
    Closed,
}

impl Exit {
    pub(crate) const ALL: [Exit; 9] = [
        Exit::Ok,
        Exit::Other,
        Exit::Usage,
        Exit::Auth,
        Exit::NotFound,
        Exit::RateLimited,
        Exit::ActivityFailed,
        Exit::Changes,
        Exit::Closed,
    ];

    pub(crate) fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Other => 1,
            Exit::Usage => 2,
            Exit::Auth => 3,
            Exit::NotFound => 4,
            Exit::RateLimited => 5,
            Exit::ActivityFailed => 6,
            Exit::Changes => 10,
            Exit::Closed => 141,
        }
    }

    /// The class's name in JSON errors and `ruckus schema`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Exit::Ok => "ok",
            Exit::Other => "other",
            Exit::Usage => "usage",
            Exit::Auth => "auth",
            Exit::NotFound => "not_found",
            Exit::RateLimited => "rate_limited",
            Exit::ActivityFailed => "activity_failed",
            Exit::Changes => "changes",
            Exit::Closed => "closed_output",
        }
    }

    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Exit::Ok => "success",
            Exit::Other => "any other failure (transport, server error, unreadable answer)",
            Exit::Usage => {
                "bad command line: unknown command or flag, missing or contradicting value"
            }
            Exit::Auth => "no credentials, or they were refused (401/403)",
            Exit::NotFound => "the service answered 404",
            Exit::RateLimited => "still rate limited (429) after retrying",
            Exit::ActivityFailed => "an asynchronous write's activity failed or timed out",
            Exit::Changes => "`plan` found changes to make (0: nothing to do)",
            Exit::Closed => "standard output was closed by its reader (`| head`)",
        }
    }

    /// Whether the exit is an outcome rather than an error: nothing is printed for it.
    pub(crate) fn is_outcome(self) -> bool {
        matches!(self, Exit::Ok | Exit::Changes | Exit::Closed)
    }

    /// The lines `--help` ends with.
    pub(crate) fn help_text() -> String {
        let mut s = String::from("Exit codes:\n");
        for e in Exit::ALL {
            s.push_str(&format!(
                "  {:<3}  {:<16} {}\n",
                e.code(),
                e.name(),
                e.meaning()
            ));
        }
        s
    }
}

/// A failure: its class and a one-line message without secrets.
#[derive(Debug)]
pub(crate) struct Failure {
    pub exit: Exit,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(exit: Exit, message: impl Into<String>) -> Failure {
        Failure {
            exit,
            message: message.into(),
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure::new(Exit::Usage, message)
    }

    pub(crate) fn other(message: impl Into<String>) -> Failure {
        Failure::new(Exit::Other, message)
    }

    /// Prints the failure on stderr as one line: JSON when `json`, else text.
    pub(crate) fn print(&self, json: bool) {
        let line = one_line(&self.message);
        if json {
            let v = serde_json::json!({"error": {
                "class": self.exit.name(),
                "exit": self.exit.code(),
                "message": line,
            }});
            eprintln!("{v}");
        } else {
            eprintln!("ruckus: {line}");
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl From<ruckus_one_catalog::Error> for Failure {
    fn from(e: ruckus_one_catalog::Error) -> Failure {
        Failure::other(e.to_string())
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        // The runtime's Display redacts secrets.
        Failure::new(class_of(&e), e.to_string())
    }
}

impl From<ruckus_one_state::Error> for Failure {
    fn from(e: ruckus_one_state::Error) -> Failure {
        use ruckus_one_state::Error as E;
        let exit = match &e {
            E::Call { source, .. } => class_of(source),
            E::MissingSecret { .. } | E::Document { .. } => Exit::Usage,
            E::NotFound(_) => Exit::NotFound,
            _ => Exit::Other,
        };
        Failure::new(exit, e.to_string())
    }
}

impl From<ruckus_one_profiles::Error> for Failure {
    fn from(e: ruckus_one_profiles::Error) -> Failure {
        match e {
            ruckus_one_profiles::Error::Config(e) => e.into(),
            // A file of the store the user can fix.
            ruckus_one_profiles::Error::Malformed { .. } => Failure::usage(e.to_string()),
            _ => Failure::other(e.to_string()),
        }
    }
}

/// The exit class of a runtime error.
pub(crate) fn class_of(e: &Error) -> Exit {
    match e {
        Error::Auth { .. } => Exit::Auth,
        Error::Activity(_) => Exit::ActivityFailed,
        Error::InvalidRequest { .. } | Error::InvalidTenantId { .. } => Exit::Usage,
        Error::Env { .. } => Exit::Auth,
        _ => match e.status() {
            Some(401 | 403) => Exit::Auth,
            Some(404) => Exit::NotFound,
            Some(429) => Exit::RateLimited,
            _ => Exit::Other,
        },
    }
}
