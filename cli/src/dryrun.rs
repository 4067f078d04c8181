//! `--dry-run`: the exact request a call would send (method, URL, media types, tenant, body),
//! the access token shown as `***`; nothing is sent, no token is asked for.

use crate::exit::Failure;
use crate::opts::{Format, Opts};
use crate::request::{Call, fill_path};
use ruckus_one_runtime::Client;
use serde_json::{Value, json};

pub fn print(client: &Client, call: &Call, opts: &Opts) -> Result<(), Failure> {
    let op = call.op;
    let r = op.route;
    let operation = crate::ops::operation(op);
    let names: Vec<String> = r.path_params.iter().map(|p| p.name.clone()).collect();
    let mut url = format!(
        "{}{}",
        client.base_url(operation.api),
        fill_path(&r.path, &names, &call.path)
    );
    if !call.query.is_empty() {
        let pairs: Vec<(&str, &str)> = call.query.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let q = serde_urlencoded_pairs(&pairs);
        url = format!("{url}?{q}");
    }
    let media = &operation.versions[call.version];
    let mut headers = vec![
        ("Authorization".to_owned(), "Bearer ***".to_owned()),
        ("Accept".to_owned(), media.accept.to_owned()),
    ];
    if call.body.is_some() {
        let ct = media.content_type.unwrap_or("application/json");
        headers.push(("Content-Type".to_owned(), ct.to_owned()));
    }
    let tenant = client.delegated_tenant().map(str::to_owned);
    if let Some(t) = &tenant {
        let header = crate::ops::auth_settings()?.tenant_header;
        headers.push((header.to_owned(), t.clone()));
    }
    let v = json!({
        "method": r.method.as_str(),
        "url": url,
        "headers": headers.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        "body": call.body.clone().unwrap_or(Value::Null),
        "operation": r.id,
    });
    match opts.format {
        Format::Table => {
            println!("{} {url}", r.method.as_str());
            for (k, v) in &headers {
                println!("{k}: {v}");
            }
            if let Some(body) = &call.body {
                println!();
                println!("{}", serde_json::to_string_pretty(body).unwrap_or_default());
            }
            Ok(())
        }
        f => crate::output::value(f, &v).map_err(crate::call::io),
    }
}

fn serde_urlencoded_pairs(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
