//! The global flags, read once from the command line.

use clap::ArgMatches;
use std::io::IsTerminal;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Yaml,
    Jsonl,
    Csv,
}

impl Format {
    fn parse(s: &str) -> Format {
        match s {
            "table" => Format::Table,
            "yaml" => Format::Yaml,
            "jsonl" => Format::Jsonl,
            "csv" => Format::Csv,
            _ => Format::Json,
        }
    }
}

#[derive(Clone)]
pub struct Opts {
    pub format: Format,
    pub columns: Option<Vec<String>>,
    pub all: bool,
    pub no_wait: bool,
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
    pub fn read(m: &ArgMatches) -> Result<Opts, crate::exit::Failure> {
        let mut opts = Opts::read_flags(m);
        if let Some(code) = text(m, "jq") {
            opts.jq = Some(std::rc::Rc::new(crate::jq::Jq::compile(&code)?));
        }
        Ok(opts)
    }

    fn read_flags(m: &ArgMatches) -> Opts {
        let tty_out = std::io::stdout().is_terminal();
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
        }
    }
}
