// A process for the SDK's fault-injection test: it tracks events into a
// storage folder while offline and says how far it got, until the test
// kills it with SIGKILL. Not part of any product.
//
// usage: analytics-fault-child STORAGE COUNT PACE_MICROSECONDS
// prints "started", then "INDEX UPTIME_NS" after every 10th event (the event
// INDEX and all before it have returned from `track` by UPTIME_NS, on the
// system's monotonic clock), then "done".
import Analytics
import AnalyticsTesting
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let pace = UInt32(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: analytics-fault-child STORAGE COUNT PACE_MICROSECONDS\n".utf8))
    exit(2)
}
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
var configuration = Configuration(
    appID: "com.example.app", endpoint: URL(string: "https://collector.example.com")!,
    storageDirectory: URL(fileURLWithPath: arguments[1], isDirectory: true), appInfo: .example
)
configuration.connectivity = ManualConnectivity(.offline)
configuration.onDiagnostic = { FileHandle.standardError.write(Data("diagnostic: \($0)\n".utf8)) }
try Analytics.shared.start(configuration)
say("started")
for index in 0..<count {
    Analytics.shared.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined"))
    if index % 10 == 9 || index == count - 1 { say("\(index) \(DispatchTime.now().uptimeNanoseconds)") }
    if pace > 0 { usleep(pace) }
}
say("done")
while true { sleep(60) }
