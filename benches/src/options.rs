//! The command line: `ruckus-one-bench [runtime] [paging] [msp] [--quick] [--runs N]`.

pub struct Options {
    pub quick: bool,
    pub runs: usize,
    pub runtime: bool,
    pub paging: bool,
    pub msp: bool,
}

pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        quick: false,
        runs: 5,
        runtime: false,
        paging: false,
        msp: false,
    };
    let mut runs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => options.quick = true,
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
                return Err(format!(
                    "unknown argument `{other}`\nusage: ruckus-one-bench [runtime] [paging] [msp] [--quick] [--runs N]"
                ));
            }
        }
    }
    if !options.runtime && !options.paging && !options.msp {
        options.runtime = true;
        options.paging = true;
        options.msp = true;
    }
    options.runs = runs.unwrap_or(if options.quick { 1 } else { 5 });
    Ok(options)
}
