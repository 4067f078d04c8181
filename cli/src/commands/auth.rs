//! `ruckus auth login|status|logout`: profiles in the config file, secrets in the keychain or
//! the 0600 secrets file; the secret is read from a prompt without echo (or standard input),
//! never from a flag, and never printed.

use crate::exit::{Exit, Failure};
use crate::opts::Opts;
use clap::{Arg, ArgAction, ArgMatches, Command};
use ruckus_one_profiles::{SecretPlace, Store};
use std::io::{BufRead, IsTerminal};

/// The `auth` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("auth")
            .about("Store, show and remove credentials (profiles)")
            .subcommand_required(true)
            .subcommand(
                Command::new("login")
                    .about("Store a profile: client id, token tenant and region here, the secret in the keychain (or a 0600 file)")
                    .arg(Arg::new("secret-stdin").long("secret-stdin").action(ArgAction::SetTrue).help("Read the secret from standard input (never from a flag)"))
                    .arg(Arg::new("default-tenant").long("default-tenant").help("Delegated tenant the profile acts for by default")),
            )
            .subcommand(Command::new("status").about("Show the profile in use and where its secret is (never the secret)"))
            .subcommand(Command::new("logout").about("Remove the profile's secret and settings"))
}

pub(super) fn run(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    match m.subcommand() {
        Some(("login", sub)) => login(sub, opts),
        Some(("status", _)) => status(opts),
        Some(("logout", _)) => logout(opts),
        _ => Err(Failure::usage("ruckus auth login|status|logout")),
    }
}

fn login(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    let store = Store::from_env();
    let mut profile = store.profile(&opts.profile)?.unwrap_or_default();
    let client_id = opts.client_id.clone().or(profile.client_id.clone());
    let Some(client_id) = client_id else {
        return Err(Failure::usage("auth login needs --client-id"));
    };
    let token_tenant = opts.token_tenant.clone().or(profile.token_tenant.clone());
    let Some(token_tenant) = token_tenant else {
        return Err(Failure::usage(
            "auth login needs --token-tenant (the tenant that owns the token)",
        ));
    };
    let secret = read_secret(m.get_flag("secret-stdin"))?;
    profile.client_id = Some(client_id);
    profile.token_tenant = Some(token_tenant);
    profile.region = opts.region.clone().or(profile.region);
    profile.tenant = m
        .get_one::<String>("default-tenant")
        .cloned()
        .or(profile.tenant);
    profile.base_url = opts.base_url.clone().or(profile.base_url);
    store.save_profile(&opts.profile, &profile)?;
    let (place, why) = store.store_secret(&opts.profile, &secret)?;
    match place {
        SecretPlace::Keychain => eprintln!(
            "profile `{}` saved; secret in the OS keychain",
            opts.profile
        ),
        SecretPlace::File => eprintln!(
            "profile `{}` saved; the keychain is not available ({}), so the secret is in {} (mode 0600)",
            opts.profile,
            why.unwrap_or_default(),
            store.secrets_path().display()
        ),
    }
    Ok(())
}

fn read_secret(from_stdin: bool) -> Result<String, Failure> {
    let secret = if from_stdin || !std::io::stdin().is_terminal() {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| Failure::usage(format!("reading the secret: {e}")))?;
        line.trim_end_matches(['\r', '\n']).to_owned()
    } else {
        rpassword::prompt_password("client secret (not shown): ")
            .map_err(|e| Failure::usage(format!("reading the secret: {e}")))?
    };
    if secret.is_empty() {
        return Err(Failure::usage("the client secret is empty"));
    }
    Ok(secret)
}

fn status(opts: &Opts) -> Result<(), Failure> {
    let store = Store::from_env();
    let profile = store.profile(&opts.profile)?;
    let from_env = std::env::var(ruckus_one_runtime::env::CLIENT_SECRET).is_ok();
    let secret = if from_env {
        "environment (RUCKUS_CLIENT_SECRET)".to_owned()
    } else {
        match store.secret(&opts.profile)? {
            Some((_, SecretPlace::Keychain)) => "OS keychain".to_owned(),
            Some((_, SecretPlace::File)) => {
                format!("{} (mode 0600)", store.secrets_path().display())
            }
            None => "none".to_owned(),
        }
    };
    let shown = crate::connect::overrides(opts)
        .over(&profile.clone().unwrap_or_default(), |name| {
            std::env::var(name).ok()
        });
    let v = serde_json::json!({
        "profile": opts.profile,
        "config_file": store.config_path().display().to_string(),
        "saved": profile.is_some(),
        "client_id": shown.client_id,
        "token_tenant": shown.token_tenant,
        "region": shown.region,
        "tenant": opts.tenant.clone().or(shown.tenant),
        "secret": secret,
    });
    crate::output::value(opts.format, &v).map_err(crate::call::io)?;
    if profile.is_none() && !from_env {
        return Err(Failure::new(
            Exit::Auth,
            format!("no profile `{}`: run `ruckus auth login`", opts.profile),
        ));
    }
    Ok(())
}

fn logout(opts: &Opts) -> Result<(), Failure> {
    let store = Store::from_env();
    let secret = store.remove_secret(&opts.profile)?;
    let profile = store.remove_profile(&opts.profile)?;
    if !secret && !profile {
        return Err(Failure::new(
            Exit::Auth,
            format!("no profile `{}`", opts.profile),
        ));
    }
    eprintln!("profile `{}` removed", opts.profile);
    Ok(())
}
