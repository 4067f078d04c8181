//! A real `redis-server` for the tests of the Redis pacing store: on a free loopback port,
//! writing nothing but into a private directory, stopped when dropped. Shared by the unit test
//! of the script (`src/pacing/redis_tests.rs`) and the integration tests (`redis_store.rs`).

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `redis-server` on a free loopback port, stopped when dropped.
pub struct RedisServer {
    child: Child,
    pub url: String,
    dir: std::path::PathBuf,
    port: u16,
}

impl RedisServer {
    /// `None` (with a message) when `redis-server` is not installed and this is not CI.
    pub fn start() -> Option<RedisServer> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = std::env::temp_dir().join(format!("ruckus-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let child = match spawn(port, &dir) {
            Ok(child) => child,
            Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
                eprintln!("skipped: cannot start redis-server ({e}); install it to run this test");
                return None;
            }
            Err(e) => panic!("CI needs redis-server (.ci/run installs it): {e}"),
        };
        let url = format!("redis://127.0.0.1:{port}/");
        let server = RedisServer {
            child,
            url,
            dir,
            port,
        };
        server.wait_listening();
        Some(server)
    }

    /// Stops the server and starts an empty one on the same port.
    #[allow(dead_code)]
    pub fn restart_empty(&mut self) {
        self.stop();
        self.child = spawn(self.port, &self.dir).expect("redis-server restarts");
        self.wait_listening();
    }

    fn wait_listening(&self) {
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server did not listen on port {}", self.port);
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `redis-server` on `port` that keeps nothing on disk.
fn spawn(port: u16, dir: &std::path::Path) -> std::io::Result<Child> {
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
        // `DEBUG SLEEP`: a server slow to answer.
        .args(["--enable-debug-command", "local"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
