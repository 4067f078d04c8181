//! Status words in colour on a terminal: green for what went well, red for what failed, yellow
//! for what is under way. Off when standard output is not a terminal, with `--out`, and under
//! `NO_COLOR` (anstream's rules, which also honour `CLICOLOR` and `CLICOLOR_FORCE`).

use anstyle::{AnsiColor, Style};
use std::sync::OnceLock;

/// The closed set of colours a status word takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    Good,
    Bad,
    Busy,
}

impl Tone {
    /// The tone of a status word, if it has one (case and `_`/`-` ignored).
    fn of(word: &str) -> Option<Tone> {
        let w: String = word
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_uppercase();
        match w.as_str() {
            "SUCCESS" | "SUCCEEDED" | "OK" | "ONLINE" | "UP" | "CONNECTED" | "OPERATIONAL"
            | "ACTIVE" | "ENABLED" | "DONE" | "COMPLETED" => Some(Tone::Good),
            "FAIL" | "FAILED" | "FAILURE" | "ERROR" | "OFFLINE" | "DOWN" | "DISCONNECTED"
            | "CRITICAL" | "TIMEDOUT" => Some(Tone::Bad),
            "PENDING" | "INPROGRESS" | "RUNNING" | "WAITING" | "STARTED" | "PROVISIONING"
            | "REBOOTING" | "UPGRADING" => Some(Tone::Busy),
            _ => None,
        }
    }

    fn style(self) -> Style {
        let colour = match self {
            Tone::Good => AnsiColor::Green,
            Tone::Bad => AnsiColor::Red,
            Tone::Busy => AnsiColor::Yellow,
        };
        Style::new().fg_color(Some(colour.into())).bold()
    }
}

/// Whether colours are written (decided once).
fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        !crate::out::to_file()
            && anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
    })
}

/// Whether `column` holds status words.
pub(crate) fn is_status(column: &str) -> bool {
    let c = column.rsplit('.').next().unwrap_or(column);
    c.eq_ignore_ascii_case("status") || c.ends_with("Status") || c.ends_with("_status")
}

/// `shown` (the cell as laid out, `word` padded) in the colour of `word`, when colours are on.
pub(crate) fn paint(word: &str, shown: String) -> String {
    match Tone::of(word).filter(|_| enabled()) {
        Some(tone) => {
            let style = tone.style();
            format!("{style}{shown}{style:#}")
        }
        None => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_words_have_tones_and_others_none() {
        assert_eq!(Tone::of("SUCCESS"), Some(Tone::Good));
        assert_eq!(Tone::of("in_progress"), Some(Tone::Busy));
        assert_eq!(Tone::of("Offline"), Some(Tone::Bad));
        assert_eq!(Tone::of("Warehouse"), None);
        assert!(is_status("status") && is_status("apStatusData.apStatus"));
        assert!(!is_status("name"));
    }
}
