//! A plain-text table that streams: the first rows (up to [`MEASURE`]) set the column widths,
//! later rows are written at once with those widths (longer cells are cut with `…`).

use std::io::Write;

/// Rows read before the widths are fixed.
const MEASURE: usize = 50;
/// Widest a column gets.
const MAX_WIDTH: usize = 40;

pub(crate) struct Table {
    columns: Vec<String>,
    widths: Option<Vec<usize>>,
    pending: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(columns: Vec<String>) -> Table {
        Table {
            columns,
            widths: None,
            pending: Vec::new(),
        }
    }

    pub(crate) fn columns(&self) -> &[String] {
        &self.columns
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) -> std::io::Result<()> {
        if self.widths.is_some() {
            return self.write(&[cells], false);
        }
        self.pending.push(cells);
        if self.pending.len() >= MEASURE {
            self.fix()?;
        }
        Ok(())
    }

    /// Fixes the widths from the rows so far and writes the header and them.
    fn fix(&mut self) -> std::io::Result<()> {
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
        for row in &self.pending {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count()).min(MAX_WIDTH);
            }
        }
        let header: Vec<String> = self.columns.iter().map(|c| c.to_uppercase()).collect();
        self.widths = Some(widths);
        let pending = std::mem::take(&mut self.pending);
        self.write(&[header], true)?;
        self.write(&pending, false)
    }

    fn write(&self, rows: &[Vec<String>], header: bool) -> std::io::Result<()> {
        let widths = self.widths.as_deref().unwrap_or_default();
        let status: Vec<bool> = self
            .columns
            .iter()
            .map(|c| !header && crate::colour::is_status(c))
            .collect();
        let mut out = crate::out::stdout();
        for row in rows {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .zip(&status)
                .map(|((c, w), s)| match s {
                    true => crate::colour::paint(c, fit(c, *w)),
                    false => fit(c, *w),
                })
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end())?;
        }
        out.flush()
    }

    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        if self.widths.is_none() {
            self.fix()?;
        }
        Ok(())
    }
}

fn fit(cell: &str, width: usize) -> String {
    let cell = cell.replace(['\n', '\t'], " ");
    let n = cell.chars().count();
    if n > width {
        let cut: String = cell.chars().take(width.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        format!("{cell}{}", " ".repeat(width - n))
    }
}
