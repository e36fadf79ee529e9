import CExif
import TesseraFacts

extension ExifView {
    /// The UTC instant of `GPSDateStamp` (`YYYY:MM:DD`) and `GPSTimeStamp` (three rationals).
    func gpsInstant() -> Int64? {
        let gps = [EXIF_IFD_GPS]
        let stampTag = ExifTag(rawValue: UInt32(EXIF_TAG_GPS_TIME_STAMP))
        guard let date = text(ExifTag(rawValue: UInt32(EXIF_TAG_GPS_DATE_STAMP)), in: gps),
            let hours = rational(stampTag, in: gps, index: 0),
            let minutes = rational(stampTag, in: gps, index: 1),
            let seconds = rational(stampTag, in: gps, index: 2),
            (0..<24).contains(hours), (0..<60).contains(minutes), (0..<61).contains(seconds),
            let day = DateText.exif(date.prefix(10) + " 00:00:00")
        else { return nil }
        return day.secondsAsUTC + Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds)
    }

    /// The position; nil with a warning when the GPS directory has a coordinate that is not one.
    func gps() -> (GPSPosition?, String?) {
        let gps = [EXIF_IFD_GPS]
        /// Whether the directory has the coordinate, and its value when it is one.
        func coordinate(_ tag: Int32, ref: Int32, axis: (String, String), limit: Double) -> (Bool, Double?) {
            let tag = ExifTag(rawValue: UInt32(tag))
            guard let degrees = rational(tag, in: gps, index: 0) else { return (false, nil) }
            let value = GPSCoordinate.exif(
                degrees: degrees, minutes: rational(tag, in: gps, index: 1), seconds: rational(tag, in: gps, index: 2),
                reference: text(ExifTag(rawValue: UInt32(ref)), in: gps), positive: axis.0, negative: axis.1,
                limit: limit)
            return (true, value)
        }
        let latitude = coordinate(EXIF_TAG_GPS_LATITUDE, ref: EXIF_TAG_GPS_LATITUDE_REF, axis: ("N", "S"), limit: 90)
        let longitude = coordinate(
            EXIF_TAG_GPS_LONGITUDE, ref: EXIF_TAG_GPS_LONGITUDE_REF, axis: ("E", "W"), limit: 180)
        switch (latitude, longitude) {
        case ((false, _), (false, _)): return (nil, nil)
        case ((true, let latitude?), (true, let longitude?)):
            return (GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude()), nil)
        case ((false, _), _), (_, (false, _)):
            return (nil, "EXIF GPS has a latitude or a longitude without the other; no position")
        default:
            return (nil, "EXIF GPS coordinate is out of range, or its reference letter is not its axis's; no position")
        }
    }

    private func altitude() -> Double? {
        let gps = [EXIF_IFD_GPS]
        guard let value = rational(ExifTag(rawValue: UInt32(EXIF_TAG_GPS_ALTITUDE)), in: gps) else { return nil }
        if let ref = entry(ExifTag(rawValue: UInt32(EXIF_TAG_GPS_ALTITUDE_REF)), in: gps),
            let bytes = ref.pointee.data, ref.pointee.size >= 1, bytes[0] == 1
        {
            return -value
        }
        return value
    }
}
