//! The command line of `cargo xtask`, declared with `clap`: one struct per command. The modules
//! that run the commands take these structs; nothing here runs anything.

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Maintainer commands of the RUCKUS One client: generate, check, list, audit, import, diff,
/// bench, bench-build, fuzz.
#[derive(Debug, Parser)]
#[command(name = "xtask", bin_name = "cargo xtask")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command line of this process. On a usage error it exits (status 2) with clap's
    /// message, followed by the command's usage line when clap's message lacks one (a flag
    /// without its value), as the hand-written parsers did.
    pub fn from_env() -> Cli {
        Cli::try_parse().unwrap_or_else(|e| {
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.to_string().contains("Usage:")
            {
                e.exit()
            }
            let _ = e.print();
            let words: Vec<String> = std::env::args().skip(1).take(1).collect();
            eprintln!("\n{}", usage_of(words.first().map(String::as_str)));
            std::process::exit(2)
        })
    }
}

/// The usage line of a command (`Usage: cargo xtask audit [OPTIONS]`), or of `cargo xtask`.
pub fn usage_of(command: Option<&str>) -> String {
    let mut cli = Cli::command();
    cli.build();
    match command.and_then(|name| cli.find_subcommand_mut(name)) {
        Some(sub) => sub.render_usage().to_string(),
        None => cli.render_usage().to_string(),
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Regenerate generated/ from spec/ (nothing is written when the spec has errors).
    Generate(GenerateArgs),
    /// Fail with a unified diff when generated/ is not what the spec gives.
    Check(PathArgs),
    /// Print a TSV of every operation in the spec.
    List(PathArgs),
    /// Compare the spec with the vendor's OpenAPI descriptions (a report).
    Audit(AuditArgs),
    /// Draft types for untyped bodies from the OpenAPI descriptions (or, with --check DIR,
    /// report how newer descriptions drift from the spec).
    Import(ImportArgs),
    /// Classify the spec changes since a git revision (or against another spec file).
    Diff(DiffArgs),
    /// Print cold build times of the client crate per feature set.
    BenchBuild(BenchBuildArgs),
    /// Performance figures as a Markdown table (every part without a name).
    Bench(BenchArgs),
    /// Run the generator on randomly mutated specs and print figures.
    Fuzz(FuzzArgs),
    /// Fail when a hand-written file is over 600 lines or a function over 100.
    Tidy,
    /// Package the published crates; fail over crates.io's size or feature limits.
    PackageCheck(PackageCheckArgs),
    /// Print (or add to CHANGELOG.md) a release's entry from the spec diff since BASE.
    Changelog(ChangelogArgs),
}

#[derive(Debug, Args)]
pub struct PackageCheckArgs {
    /// Also build every package from its .crate (`cargo package` without `--no-verify`).
    #[arg(long)]
    pub verify: bool,
}

#[derive(Debug, Args)]
pub struct ChangelogArgs {
    /// The git revision of the previous release (its spec is the diff's base).
    #[arg(value_name = "BASE")]
    pub rev: String,
    /// The release date (default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// Insert the entry into CHANGELOG.md (above the newest entry) instead of printing it.
    #[arg(long)]
    pub write: bool,
}

/// `--spec` and `--out` of `generate`, `check` and `list`. Without either, the workspace's own
/// spec and `generated/` (named relative to the workspace root); with one, the other defaults to
/// the workspace's, and paths are taken as given.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The top-level spec file (default spec/ruckus-one.yaml).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
    /// The output directory (default generated/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `generate`: `--spec`, `--out` and whether to use the caches.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    /// Neither read nor write the caches under target/codegen-cache (format everything).
    #[arg(long)]
    pub no_cache: bool,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The directory of OpenAPI descriptions (default ../shared/reference/openapi).
    #[arg(long, value_name = "DIR")]
    pub openapi: Option<PathBuf>,
    /// Print a TSV of the findings.
    #[arg(long, conflicts_with = "summary")]
    pub tsv: bool,
    /// Print figures only.
    #[arg(long)]
    pub summary: bool,
    /// The top-level spec file (default spec/ruckus-one.yaml).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
}

/// Exit status of `import --check DIR`, most severe class found: 0 no drift, 3 media version
/// added, 4 operation added, 5 rate limit changed, 6 operation deprecated, 7 schema changed,
/// 8 operation removed (1: the check failed, 2: a usage error).
const CHECK_CODES: &str = "\
Exit status of --check (the most severe class found):
  0  no drift
  3  media version added
  4  operation added
  5  rate limit changed
  6  operation deprecated
  7  schema changed
  8  operation removed
  1  the check could not run; 2  a usage error";

#[derive(Debug, Args)]
#[command(after_help = CHECK_CODES)]
pub struct ImportArgs {
    /// The top-level spec file (default spec/ruckus-one.yaml).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
    /// The directory of OpenAPI descriptions (default ../shared/reference/openapi).
    #[arg(long, value_name = "DIR")]
    pub openapi: Option<PathBuf>,
    /// Only this API (default: every API).
    #[arg(long, value_name = "NAME")]
    pub api: Option<String>,
    /// Write the imported files (all or nothing, after checking that the spec validates with them).
    #[arg(long)]
    pub write: bool,
    /// Drift watch: compare the descriptions in DIR (a newer release) with the spec and print
    /// the differences by class; writes nothing.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["write", "openapi", "api"])]
    pub check: Option<PathBuf>,
}

/// What makes `diff` exit non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any breaking change.
    Breaking,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The git revision to compare the working tree's spec with (default HEAD).
    #[arg(value_name = "BASE", conflicts_with = "base_spec")]
    pub rev: Option<String>,
    /// Print JSON instead of Markdown.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when a change is breaking (or when the base does not load).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Option<FailOn>,
    /// The spec to review (default spec/ruckus-one.yaml).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
    /// Compare with this spec file instead of a git revision.
    #[arg(long, value_name = "FILE")]
    pub base_spec: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchBuildArgs {
    /// Runs of every configuration (the median is printed).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive)]
    pub runs: usize,
    /// Also time a build from an empty target directory.
    #[arg(long)]
    pub full: bool,
    /// Every area alone, not only the three largest.
    #[arg(long)]
    pub every_area: bool,
}

/// A part of `cargo xtask bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Part {
    /// The generator's wall time and peak memory.
    Generator,
    /// The generated client against hand-written reqwest.
    Runtime,
    /// Paging through the generated client.
    Paging,
    /// Cold build times and generated lines per operation.
    Compile,
    /// Writes at MSP scale (fan-out, pacing, bulk waiting) against a local rate-limited server.
    Msp,
    /// Start-up of the simulator (`ruckus-one-sim`).
    Sim,
    /// Start-up and tool list size of the MCP server (`ruckus-mcp --local`).
    Mcp,
    /// The command line `ruckus`: start-up, streaming 10,000 rows, size, build time.
    Cli,
    /// Desired state: export and plan of a large tenant against the rate-limited simulator.
    State,
    /// Batch runs: 1,000 creates from a CSV against the rate-limited simulator, the journal's cost.
    Batch,
    /// `ruckus report inventory` over 10,000 APs: time to the first row, peak memory.
    Report,
}

impl Part {
    pub const ALL: [Part; 11] = [
        Part::Generator,
        Part::Runtime,
        Part::Paging,
        Part::Msp,
        Part::Compile,
        Part::Sim,
        Part::Mcp,
        Part::Cli,
        Part::State,
        Part::Batch,
        Part::Report,
    ];

    /// The name on the command line (and of the benchmark binary's part).
    pub fn name(self) -> &'static str {
        match self {
            Part::Generator => "generator",
            Part::Runtime => "runtime",
            Part::Paging => "paging",
            Part::Compile => "compile",
            Part::Msp => "msp",
            Part::Sim => "sim",
            Part::Mcp => "mcp",
            Part::Cli => "cli",
            Part::State => "state",
            Part::Batch => "batch",
            Part::Report => "report",
        }
    }
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The parts to run (all without a name).
    #[arg(value_enum, value_name = "PART")]
    pub parts: Vec<Part>,
    /// Tiny iteration counts and no cold builds: checks the harness, not the timings.
    #[arg(long)]
    pub quick: bool,
    /// Runs of every part (each part has its own default).
    #[arg(long, value_name = "N", value_parser = positive)]
    pub runs: Option<usize>,
    /// `compile`: also time a build from an empty target directory.
    #[arg(long)]
    pub full: bool,
    /// `msp`: four client processes sharing one Redis (a `redis-server` the benchmark starts),
    /// then the same with Redis stopped on the way, instead of one process.
    #[arg(long)]
    pub redis: bool,
    /// Internal: run the generator once on SPEC and print its figures (the `generator` part runs
    /// xtask itself with it).
    #[arg(long, value_name = "SPEC", hide = true, exclusive = true)]
    pub child: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// Mutated specs to run.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub cases: usize,
    /// Seed of the first case (case i uses S + i).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Also compile up to K accepted outputs.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub compile: usize,
    /// Seconds before a case counts as a hang (at least 1).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub timeout: u64,
    /// Cases run at once (default: the number of cores).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the spec of every failing case to DIR/<seed>/.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}

/// A number above zero.
fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{s}` is not a positive number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_and_conflicts() {
        let cli = Cli::try_parse_from(["xtask", "import"]).expect("parses");
        let Command::Import(args) = cli.command else {
            panic!("not import: {cli:?}");
        };
        assert_eq!((args.api.as_deref(), args.write), (None, false));
        assert!(Cli::try_parse_from(["xtask", "audit", "--tsv", "--summary"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "import", "--check", "d", "--write"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "diff", "HEAD", "--base-spec", "x"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "diff", "--fail-on", "anything"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "bench", "--runs", "0"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "bench-build", "--runs"]).is_err());
        let cli = Cli::try_parse_from(["xtask", "bench", "paging", "generator", "--quick"])
            .expect("parses");
        let Command::Bench(args) = cli.command else {
            panic!("not bench: {cli:?}");
        };
        assert_eq!(args.parts, [Part::Paging, Part::Generator]);
        assert!(args.quick);
    }

    #[test]
    fn usage_lines_name_the_command() {
        assert_eq!(
            usage_of(Some("audit")),
            "Usage: cargo xtask audit [OPTIONS]"
        );
        assert!(usage_of(None).starts_with("Usage: cargo xtask"));
        assert!(usage_of(Some("no-such-command")).starts_with("Usage: cargo xtask"));
    }
}
