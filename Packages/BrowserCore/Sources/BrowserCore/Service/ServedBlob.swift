/// A Binary or Transformable value as the server sends it (`GET /api/object/blob`).
public struct ServedBlob: Sendable {
    public var reader: any BlobReader
    /// The value's own type, only for raster images whose header parsed; nil: served as a download.
    public var mimeType: String?
    /// `<Entity>-p<key>-<attribute>.<extension>`.
    public var filename: String
}
