//! `cargo xtask`: parses the command line (see [`xtask::cli`]) and runs the command; the commands
//! live in the `xtask` library.

use std::process::ExitCode;
use xtask::cli::{Cli, Command};
use xtask::workspace::workspace_root;
use xtask::{audit, bench, changelog, diff, fuzz, generate, import, package, tidy};

fn main() -> ExitCode {
    let cli = Cli::from_env();
    let result = match &cli.command {
        Command::Generate(args) => generate::Paths::from_args(&args.paths)
            .and_then(|p| generate::generate(&p, !args.no_cache)),
        Command::Check(args) => generate::Paths::from_args(args).and_then(|p| generate::check(&p)),
        Command::List(args) => generate::Paths::from_args(args).and_then(|p| generate::list(&p)),
        Command::Audit(args) => audit::run(args),
        Command::Import(args) if args.check.is_some() => return import::check(args),
        Command::Import(args) => import::run(args),
        Command::Diff(args) => return diff::run(args),
        Command::BenchBuild(args) => bench::bench_build(&workspace_root(), args),
        Command::Bench(args) => bench::run(&workspace_root(), args),
        Command::Fuzz(args) => fuzz::run(&workspace_root(), args),
        Command::Tidy => tidy::run(),
        Command::PackageCheck(args) => package::run(&workspace_root(), args.verify),
        Command::Changelog(args) => changelog::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}
