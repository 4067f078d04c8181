//! `--dry-run`: the exact request a call would send (method, URL, headers, body), as the
//! runtime builds it (`Request::preview`): the same path encoding and refusals, media version
//! and tenant header as the call itself. Nothing is sent, no token is asked for, and the access
//! token shows as `***`.

use crate::exit::Failure;
use crate::opts::{Format, Opts};
use crate::request::Call;
use ruckus_one_runtime::Client;
use serde_json::{Value, json};

pub(crate) fn print(client: &Client, call: &Call, opts: &Opts) -> Result<(), Failure> {
    let preview = crate::call::build(client, call)?.preview()?;
    let r = call.op.route;
    let body = preview
        .body
        .as_deref()
        .map(|text| serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned())));
    let v = json!({
        "method": preview.method.as_str(),
        "url": preview.url,
        "headers": preview.headers.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        "body": body.clone().unwrap_or(Value::Null),
        "operation": r.id,
    });
    match opts.format {
        Format::Table => {
            crate::out::line(format_args!("{} {}", preview.method.as_str(), preview.url))?;
            for (k, v) in &preview.headers {
                crate::out::line(format_args!("{k}: {v}"))?;
            }
            if let Some(body) = &body {
                crate::out::line("")?;
                crate::out::line(format_args!(
                    "{}",
                    serde_json::to_string_pretty(body).unwrap_or_default()
                ))?;
            }
            Ok(())
        }
        f => crate::output::value(f, &v).map_err(crate::call::io),
    }
}
