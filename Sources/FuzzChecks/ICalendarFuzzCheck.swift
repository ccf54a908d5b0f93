import Foundation
import TodoModel

/// UTF-8 bytes → `ICalendarReader` and `VTODOMapping.read` (a CalDAV client's PUT body). Holds:
/// a rejection is an `ICalendarParseError` (typed throws) naming a line inside the text;
/// components that read are written as text that reads back to the same components; a task
/// that reads is written as a resource that reads back to the same task and kept data.
public enum ICalendarFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let components: [ICalendarComponent]
        do {
            components = try ICalendarReader.components(text)
        } catch {
            let lines = text.unicodeScalars.filter { $0 == "\n" }.count + 1
            guard (0...lines).contains(error.line) else { return FuzzFailure("error line \(error.line) outside 0...\(lines): \(error)") }
            return nil
        }
        let written = ICalendarWriter.text(components)
        guard let again = try? ICalendarReader.components(written), again == components else {
            return FuzzFailure("write then read changed the components: \(written)")
        }
        let utc = TimeZone(identifier: "UTC")!
        guard let task = try? VTODOMapping.read(text, zone: utc) else { return nil }
        let resource = VTODOMapping.write(task, updated: Date(timeIntervalSince1970: 1_795_000_000), zone: utc)
        let reread: TaskResource
        do {
            reread = try VTODOMapping.read(resource, zone: utc)
        } catch {
            return FuzzFailure("the written task does not read (\(error)): \(resource)")
        }
        // A completed task without a completion time is written with the server's stamp.
        var expected = task
        if task.item.complete, task.item.completedAt == nil { expected.item.completedAt = reread.item.completedAt }
        guard reread == expected, reread.item.completedAt != nil || !task.item.complete else {
            return FuzzFailure("write then read changed the task: \(task) → \(reread), via \(resource)")
        }
        return nil
    }
}
