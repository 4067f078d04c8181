//! Runs the built `ruckus` binary against a simulator started by the test, through the
//! environment variables the runtime reads (`RUCKUS_*`), with a private config directory and
//! the keychain turned off.

#![allow(dead_code)] // each test file uses a part

use ruckus_one_sim::{SimConfig, Simulator};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }
}

/// A simulator whose activities end after 200 ms.
pub async fn sim_with(config: SimConfig) -> Simulator {
    let config = config.activity_duration(std::time::Duration::from_millis(200));
    Simulator::start_with(config)
        .await
        .expect("the simulator starts")
}

/// `ruckus ARGS` with the simulator's credentials in the environment, its standard streams
/// piped.
pub fn ruckus(sim: Option<&Simulator>, config_dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut cmd = command(sim, config_dir, args);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin is written");
    let out = child.wait_with_output().expect("the binary ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The command `ruckus ARGS` with the simulator's credentials in the environment (nothing else
/// of the test's), a private config directory and the keychain off; standard streams not set.
pub fn command(sim: Option<&Simulator>, config_dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ruckus"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("RUCKUS_CONFIG_DIR", config_dir)
        .env("RUCKUS_KEYCHAIN", "off");
    if let Some(sim) = sim {
        let (id, secret) = sim.credentials();
        cmd.env("RUCKUS_CLIENT_ID", id)
            .env("RUCKUS_CLIENT_SECRET", secret)
            .env("RUCKUS_TENANT_ID", sim.tenant_id())
            .env("RUCKUS_BASE_URL", sim.base_url());
    }
    cmd
}

/// Which stream of a command a pseudo-terminal takes.
#[derive(Clone, Copy)]
pub enum Screen {
    Stdout,
    Stderr,
}

/// Runs `cmd` with `screen` on a new pseudo-terminal (`TERM=xterm-256color`) and the other
/// output stream and standard input closed; whether it succeeded, and what the terminal showed.
pub fn on_pty(mut cmd: Command, screen: Screen) -> (bool, String) {
    use std::io::Read;
    let pty = nix::pty::openpty(None, None).expect("a pseudo-terminal");
    cmd.stdin(Stdio::null()).env("TERM", "xterm-256color");
    match screen {
        Screen::Stdout => cmd.stdout(Stdio::from(pty.slave)).stderr(Stdio::null()),
        Screen::Stderr => cmd.stderr(Stdio::from(pty.slave)).stdout(Stdio::null()),
    };
    let mut child = cmd.spawn().expect("the binary runs");
    // Only the child holds the terminal's end now: reading ends when it exits.
    drop(cmd);
    let mut shown = Vec::new();
    let mut master = std::fs::File::from(pty.master);
    let mut buf = [0u8; 4096];
    // A read error (EIO) is the terminal closing: the child is gone.
    while let Ok(n @ 1..) = master.read(&mut buf) {
        shown.extend_from_slice(&buf[..n]);
    }
    let ok = child.wait().expect("the binary ends").success();
    (ok, String::from_utf8_lossy(&shown).into_owned())
}
