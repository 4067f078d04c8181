//! The global flags, read once from the command line.

use clap::{Arg, ArgAction, ArgMatches};
use std::io::IsTerminal;

/// The heading global flags are listed under in `--help`.
const GLOBAL: &str = "Global options";

/// The global flags: their long names are not used for an operation's own flags.
pub(crate) fn globals() -> Vec<Arg> {
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .help(help)
            .action(ArgAction::SetTrue)
            .global(true)
            .help_heading(GLOBAL)
    };
    let value = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .help(help)
            .global(true)
            .num_args(1)
            .help_heading(GLOBAL)
    };
    vec![
        value("output", "Output format: table (default on a terminal), json (default otherwise), yaml, jsonl, csv; xlsx for `report`")
            .short('o')
            .value_parser(["table", "json", "yaml", "jsonl", "csv", "xlsx"]),
        value("columns", "Comma-separated fields shown as columns (table, csv); `a.b` reads nested fields"),
        value("jq", "jq filter applied to each row of a list, else to the answer (results one a line)"),
        flag("all", "Fetch every page of a paged operation (rows stream as they arrive)"),
        flag("quiet", "Print ids only, one a line: of each row, of the object read, made or changed"),
        flag("no-wait", "Do not wait for an asynchronous write: print its request id"),
        flag("yes", "Do not ask before a delete"),
        flag("dry-run", "Print the request that would be sent (secrets redacted) and send nothing"),
        flag("local", "Run against the simulator, in process, instead of RUCKUS One"),
        value("seed", "With --local: objects and tenants to start the simulator with (JSON or YAML file)"),
        value("tenant", "Act for this delegated (customer) tenant"),
        value("tenants", "Run the command for each of these customer tenants (comma-separated)"),
        flag("all-customers", "Run the command for every customer of the MSP account"),
        value("concurrency", "Customers worked on at once with --tenants/--all-customers, rows with --each (default 8)")
            .value_parser(clap::value_parser!(usize)),
        value("profile", "Named profile of the config file (default: `default`)").env("RUCKUS_PROFILE"),
        value("region", "Region: na, eu or asia (overrides the profile)"),
        value("client-id", "Application client id (overrides environment and profile)"),
        value("token-tenant", "Tenant id that owns the application token (overrides environment and profile)"),
        value("base-url", "Send every call to this base URL instead of the region's hosts"),
        value("json", "Whole request body: inline JSON, @FILE, or - for standard input"),
        Arg::new("set")
            .long("set")
            .help("Set a (nested) body field: --set a.b=VALUE (VALUE read as JSON, else text)")
            .action(ArgAction::Append)
            .num_args(1)
            .global(true)
            .help_heading(GLOBAL),
        value("version-media", "Media version to use (`v1.1`), where the operation offers several"),
        value("out", "Write the output to FILE instead of standard output (replaced only on success)")
            .value_name("FILE"),
        value("watch", "Run a read again every DURATION (`10s`, `1m`) and redraw, until interrupted")
            .value_name("DURATION")
            .value_parser(duration),
        flag("verbose", "Print each HTTP exchange on standard error (method, URL, status, time, request id)")
            .short('v'),
        flag("debug", "Like --verbose, with headers and bodies (secrets and the token masked)"),
    ]
}

/// What `--quiet` prints of each row or answer: its id (an AP's serial number; a write not
/// waited for, its request id).
const IDS: &str =
    r#"if type == "object" then (.id // .serialNumber // .requestId // empty) else . end"#;

/// A duration as people write it: `30s`, `5m`, `1h 30m`.
pub(crate) fn duration(s: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("{e} (write it as 30s, 5m or 1h)"))
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Table,
    Json,
    Yaml,
    Jsonl,
    Csv,
    /// A spreadsheet: `ruckus report` only.
    Xlsx,
}

impl Format {
    fn parse(s: &str) -> Format {
        match s {
            "table" => Format::Table,
            "yaml" => Format::Yaml,
            "jsonl" => Format::Jsonl,
            "csv" => Format::Csv,
            "xlsx" => Format::Xlsx,
            _ => Format::Json,
        }
    }
}

#[derive(Clone)]
pub(crate) struct Opts {
    pub format: Format,
    pub columns: Option<Vec<String>>,
    pub all: bool,
    pub no_wait: bool,
    /// `--quiet`: ids only (through the jq filter [`IDS`]).
    pub quiet: bool,
    pub yes: bool,
    pub dry_run: bool,
    pub local: bool,
    pub seed: Option<String>,
    pub tenant: Option<String>,
    pub tenants: Option<Vec<String>>,
    pub all_customers: bool,
    pub concurrency: usize,
    pub profile: String,
    pub region: Option<String>,
    pub client_id: Option<String>,
    pub token_tenant: Option<String>,
    pub base_url: Option<String>,
    pub json: Option<String>,
    pub set: Vec<String>,
    pub version_media: Option<String>,
    /// `--jq`, compiled.
    pub jq: Option<std::rc::Rc<crate::jq::Jq>>,
    /// Standard error is a terminal (progress is shown there).
    pub tty_err: bool,
    pub out: Option<String>,
    pub watch: Option<std::time::Duration>,
    pub verbose: bool,
    pub debug: bool,
}

fn text(m: &ArgMatches, id: &str) -> Option<String> {
    m.try_get_one::<String>(id).ok().flatten().cloned()
}

fn on(m: &ArgMatches, id: &str) -> bool {
    m.try_get_one::<bool>(id)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

fn list(s: Option<String>) -> Option<Vec<String>> {
    s.map(|s| {
        s.split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_owned)
            .collect()
    })
}

impl Opts {
    /// The global flags of `m` (the deepest subcommand's matches see them all); a `--jq`
    /// filter that does not compile is a usage error.
    pub(crate) fn read(m: &ArgMatches) -> Result<Opts, crate::exit::Failure> {
        let mut opts = Opts::read_flags(m);
        let code = match (text(m, "jq"), opts.quiet) {
            (Some(_), true) => {
                return Err(crate::exit::Failure::usage(
                    "--quiet prints ids only: it does not go with --jq",
                ));
            }
            (Some(code), false) => Some(code),
            (None, true) => Some(IDS.to_owned()),
            (None, false) => None,
        };
        if let Some(code) = code {
            opts.jq = Some(std::rc::Rc::new(crate::jq::Jq::compile(&code)?));
        }
        Ok(opts)
    }

    fn read_flags(m: &ArgMatches) -> Opts {
        let tty_out = std::io::stdout().is_terminal() && text(m, "out").is_none();
        let format = match text(m, "output") {
            Some(f) => Format::parse(&f),
            None if tty_out => Format::Table,
            None => Format::Json,
        };
        Opts {
            format,
            columns: list(text(m, "columns")),
            all: on(m, "all"),
            no_wait: on(m, "no-wait"),
            quiet: on(m, "quiet"),
            yes: on(m, "yes"),
            dry_run: on(m, "dry-run"),
            local: on(m, "local"),
            seed: text(m, "seed"),
            tenant: text(m, "tenant"),
            tenants: list(text(m, "tenants")),
            all_customers: on(m, "all-customers"),
            concurrency: m
                .try_get_one::<usize>("concurrency")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(8)
                .max(1),
            profile: text(m, "profile").unwrap_or_else(|| "default".to_owned()),
            region: text(m, "region"),
            client_id: text(m, "client-id"),
            token_tenant: text(m, "token-tenant"),
            base_url: text(m, "base-url"),
            json: text(m, "json"),
            set: m
                .try_get_many::<String>("set")
                .ok()
                .flatten()
                .map(|v| v.cloned().collect())
                .unwrap_or_default(),
            version_media: text(m, "version-media"),
            jq: None,
            tty_err: std::io::stderr().is_terminal(),
            out: text(m, "out"),
            watch: m
                .try_get_one::<std::time::Duration>("watch")
                .ok()
                .flatten()
                .copied(),
            verbose: on(m, "verbose"),
            debug: on(m, "debug"),
        }
    }
}
