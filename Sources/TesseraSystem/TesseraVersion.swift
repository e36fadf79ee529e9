/// This build's version, as `tessera --version` prints it and as files Tessera writes for
/// other programs name their writer (the desktop thumbnails' `Software`, their failure folder).
public enum TesseraVersion {
    public static let current = "0.1.0"
}
