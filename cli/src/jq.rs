//! `--jq FILTER`: a jq filter (jaq, a jq implementation in Rust) applied to each row of a list
//! (so rows still stream) or to the whole answer otherwise. Each result is printed on its own
//! line: strings as text, other values as compact JSON.

use crate::exit::Failure;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};
use jaq_json::Val;
use serde_json::Value;
use std::io::Write;

type Filter = jaq_core::Filter<data::JustLut<Val>>;

/// A compiled filter.
pub(crate) struct Jq {
    filter: Filter,
}

impl Jq {
    pub(crate) fn compile(code: &str) -> Result<Jq, Failure> {
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let program = File { code, path: () };
        let modules = loader.load(&arena, program).map_err(|e| {
            Failure::usage(format!("--jq {code}: cannot parse ({} error(s))", e.len()))
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|e| {
                Failure::usage(format!(
                    "--jq {code}: cannot compile ({} error(s))",
                    e.len()
                ))
            })?;
        Ok(Jq { filter })
    }

    /// The filter's results for `input`, each as JSON.
    pub(crate) fn run(&self, input: &Value) -> Result<Vec<Value>, Failure> {
        let text = input.to_string();
        let val = jaq_json::read::parse_single(text.as_bytes())
            .map_err(|e| Failure::other(format!("--jq: input: {e}")))?;
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        self.filter
            .id
            .run((ctx, val))
            .map(unwrap_valr)
            .map(|r| {
                let v = r.map_err(|e| Failure::other(format!("--jq: {e}")))?;
                serde_json::from_str(&v.to_string())
                    .map_err(|e| Failure::other(format!("--jq: result: {e}")))
            })
            .collect()
    }

    /// Writes the filter's results for `input`, one a line.
    pub(crate) fn print(&self, input: &Value) -> Result<(), Failure> {
        let mut out = crate::out::stdout();
        for v in self.run(input)? {
            let line = match v {
                Value::String(s) => s,
                other => other.to_string(),
            };
            writeln!(out, "{line}").map_err(crate::call::io)?;
        }
        out.flush().map_err(crate::call::io)
    }
}

#[cfg(test)]
mod tests {
    use super::Jq;
    use serde_json::json;

    #[test]
    fn runs_a_filter_with_the_standard_library() {
        let jq = Jq::compile("map(select(.n > 1) | .name)").unwrap();
        let out = jq
            .run(&json!([{"n": 1, "name": "a"}, {"n": 2, "name": "b"}]))
            .unwrap();
        assert_eq!(out, vec![json!(["b"])]);
        assert!(Jq::compile("map(").is_err());
    }
}
