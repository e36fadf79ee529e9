import Foundation

/// A command for the user to type next, written so that it works when pasted: this program as
/// it was started, then the subcommand, then the configuration, index and cache options this
/// run was given, each word quoted for the shell where it needs to be.
///
/// A program found on `PATH` was started as a bare name and is named `tessera`; one started by
/// a path (`./tessera`, `.build/release/tessera`) keeps that path.
enum CommandHint {
    static func line(_ words: [String], store: StoreSelection, program: String) -> String {
        var line = [program.contains("/") ? program : "tessera"] + words
        if let config = store.config { line += ["--config", config] }
        if let index = store.index { line += ["--index", index] }
        if let cache = store.cache { line += ["--cache", cache] }
        return line.map(quoted).joined(separator: " ")
    }

    /// `word` as one shell word: as it is when it holds only characters no shell treats
    /// specially, else in single quotes (a single quote inside written as '\'').
    static func quoted(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
