/// Whom an album site shows on its People pages, in its viewer and in Find (docs/PEOPLE.md): a
/// plain option, so that the configuration can name it without the album module.
public enum AlbumPeople: String, Sendable, CaseIterable {
    /// The people with a name (a user's, or the one their photos' XMP gave).
    case named
    /// The named and the groups not named yet: strangers' faces too, for a site kept private.
    case all
    /// No one: no People pages, and no names in the viewer or Find.
    case none
}
