//! The course servers' TCP protocols, spoken byte for byte so a course's own clients and
//! servers can meet Agon's. So far: ReversiXT's message framing.

pub mod reversixt;
