import Foundation

/// The files of this folder (help text, sample list), bundled with the app.
public enum TodoResources {
    /// The bundle holding them.
    public static var bundle: Bundle { Bundle.module }
}
