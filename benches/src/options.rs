//! The command line: `ruckus-one-bench [runtime] [paging] [msp] [--redis] [--quick] [--runs N]`, or
//! `ruckus-one-bench profile SCENARIO CLIENT CALLS` for a profiler.

/// Runs of the paging part by default.
const RUNS: usize = 5;

/// Run pairs of each cell of the runtime part by default. On the shared two-core machine one
/// pair's throughput ratio moves by ±5 % with the other tenants' load, while the clients' costs
/// differ by 0-2 %: the median of nine pairs still fell past a target's edge in about one
/// invocation of three.
const RUNTIME_RUNS: usize = 15;

pub struct Options {
    pub quick: bool,
    /// Runs of the paging part (default [`RUNS`]).
    pub runs: usize,
    /// Run pairs of each cell of the runtime part (default [`RUNTIME_RUNS`]).
    pub runtime_runs: usize,
    pub runtime: bool,
    pub paging: bool,
    pub msp: bool,
    /// `--redis`: the `msp` part from four processes sharing one Redis (and with it stopped on
    /// the way) instead of one process.
    pub redis: bool,
    /// `profile`: only these sequential calls, no figures (see [`Profile`]).
    pub profile: Option<Profile>,
}

/// `profile SCENARIO CLIENT CALLS [CALLERS]`: one client makes `CALLS` sequential calls of one
/// scenario of the runtime part (`empty`, `ap` or `page`) from each of `CALLERS` concurrent
/// callers (default 1) and nothing else runs, so that a profiler (`valgrind --tool=callgrind`,
/// `perf record`) sees one client's cost per call, to compare with the other's.
pub struct Profile {
    pub scenario: String,
    /// `generated` or `hand`.
    pub client: String,
    pub calls: usize,
    pub callers: usize,
}

const USAGE: &str = "usage: ruckus-one-bench [runtime] [paging] [msp] [--redis] [--quick] [--runs N]\n       \
    ruckus-one-bench profile empty|ap|page generated|hand CALLS [CALLERS]";

fn profile(args: &[String]) -> Result<Profile, String> {
    match args {
        [scenario, client, calls, callers @ ..]
            if ["empty", "ap", "page"].contains(&scenario.as_str())
                && ["generated", "hand"].contains(&client.as_str())
                && callers.len() <= 1 =>
        {
            let number = |text: &str| match text.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(USAGE.to_owned()),
            };
            Ok(Profile {
                scenario: scenario.clone(),
                client: client.clone(),
                calls: number(calls)?,
                callers: callers.first().map_or(Ok(1), |c| number(c))?,
            })
        }
        _ => Err(USAGE.to_owned()),
    }
}

pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        quick: false,
        runs: RUNS,
        runtime_runs: RUNTIME_RUNS,
        runtime: false,
        paging: false,
        msp: false,
        redis: false,
        profile: None,
    };
    if args.first().map(String::as_str) == Some("profile") {
        options.profile = Some(profile(&args[1..])?);
        return Ok(options);
    }
    let mut runs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => options.quick = true,
            "--redis" => options.redis = true,
            "--runs" => {
                runs = Some(
                    it.next()
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|n| *n > 0)
                        .ok_or("--runs takes a positive number")?,
                )
            }
            "runtime" => options.runtime = true,
            "paging" => options.paging = true,
            "msp" => options.msp = true,
            other => {
                return Err(format!("unknown argument `{other}`\n{USAGE}"));
            }
        }
    }
    if !options.runtime && !options.paging && !options.msp {
        options.runtime = true;
        options.paging = true;
        options.msp = true;
    }
    options.runs = runs.unwrap_or(if options.quick { 1 } else { RUNS });
    options.runtime_runs = runs.unwrap_or(if options.quick { 1 } else { RUNTIME_RUNS });
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile_of(args: &[&str]) -> Result<(usize, usize), String> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let profile = parse(&args)?.profile.ok_or("no profile")?;
        Ok((profile.calls, profile.callers))
    }

    #[test]
    fn profile_takes_an_optional_number_of_callers() {
        assert_eq!(
            profile_of(&["profile", "empty", "hand", "300"]),
            Ok((300, 1))
        );
        assert_eq!(
            profile_of(&["profile", "ap", "generated", "300", "16"]),
            Ok((300, 16))
        );
        for bad in [
            &["profile", "empty", "hand", "300", "0"][..],
            &["profile", "empty", "hand", "0"],
            &["profile", "empty", "hand", "300", "16", "2"],
            &["profile", "empty", "nobody", "300"],
        ] {
            assert!(profile_of(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_runtime_part_takes_nine_run_pairs_unless_told() {
        let runs = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            let options = parse(&args).unwrap();
            (options.runs, options.runtime_runs)
        };
        assert_eq!(runs(&["runtime"]), (5, 15));
        assert_eq!(runs(&["runtime", "--runs", "3"]), (3, 3));
        assert_eq!(runs(&["--quick"]), (1, 1));
    }
}
