/// Lets the connection options come before the command (`todo --server URL list`) as well as
/// after it: argument-parser reads a command's options only after its name, so those given
/// before it are moved behind it.
enum GlobalOptions {
    /// Options every command takes, each with one value.
    static let names: Set<String> = ["--server", "--device", "--store", "--ca-file"]

    /// The arguments with every leading connection option (`--server URL` or `--server=URL`) moved
    /// after the command's name, and its subcommand's (`app-passwords add`) when `commands` names
    /// one under it; unchanged when no known command follows them.
    static func reorder(_ arguments: [String], commands: [String: Set<String>]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            guard names.contains(name) else { break }
            if argument.contains("=") {
                leading.append(argument)
                index += 1
            } else {
                guard index + 1 < arguments.count else { return arguments }
                leading += [argument, arguments[index + 1]]
                index += 2
            }
        }
        guard !leading.isEmpty, index < arguments.count, let nested = commands[arguments[index]] else { return arguments }
        var path = [arguments[index]]
        if index + 1 < arguments.count, nested.contains(arguments[index + 1]) { path.append(arguments[index + 1]) }
        return path + leading + Array(arguments[(index + path.count)...])
    }
}
