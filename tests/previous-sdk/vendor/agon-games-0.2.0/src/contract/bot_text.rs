//! Text a bot wrote (panic messages, reasons it gives) is kept only up to a bound, so a hostile
//! bot cannot fill records and terminals.

/// The most of a bot's own text (panic messages, reasons) the engine keeps.
pub const MAX_BOT_TEXT: usize = 2000;

/// `text` cut to [`MAX_BOT_TEXT`] characters, saying so.
pub fn bounded(text: &str) -> String {
    match text.char_indices().nth(MAX_BOT_TEXT) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... [{} more bytes]", &text[..cut], text.len() - cut),
    }
}
