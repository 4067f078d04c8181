//! A `redis-server` on a free loopback port for the `msp --redis` runs: keeps nothing on disk,
//! can be restarted empty on the same port, and is stopped when dropped.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::clients::Failure;

pub struct RedisServer {
    child: Child,
    pub url: String,
    dir: std::path::PathBuf,
    port: u16,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer, Failure> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let dir = std::env::temp_dir().join(format!("ruckus-bench-redis-{port}"));
        std::fs::create_dir_all(&dir)?;
        let child = spawn(port, &dir)?;
        let url = format!("redis://127.0.0.1:{port}/");
        let mut server = RedisServer {
            child,
            url,
            dir,
            port,
        };
        if let Err(e) = server.wait_listening() {
            server.stop();
            return Err(e.into());
        }
        Ok(server)
    }

    /// Stops the server and starts an empty one on the same port.
    pub fn restart_empty(&mut self) -> Result<(), String> {
        self.stop();
        self.child = spawn(self.port, &self.dir)?;
        self.wait_listening()
    }

    fn wait_listening(&self) -> Result<(), String> {
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!("redis-server did not listen on port {}", self.port))
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(port: u16, dir: &std::path::Path) -> Result<Child, String> {
    Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start redis-server (install it): {e}"))
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
