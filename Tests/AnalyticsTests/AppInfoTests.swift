@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct AppInfoTests {
    /// An environment the app gives wins over the classifier's guess.
    @Test(arguments: AppEnvironment.allCases)
    func anEnvironmentGivenIsTheOneReported(environment: AppEnvironment) {
        #expect(AppInfo.current(environment: environment).environment == environment)
    }

    @Test func theOSVersionShowsAPatchOnlyWhenThereIsOne() {
        #expect(AppInfo.osVersion(OperatingSystemVersion(majorVersion: 18, minorVersion: 1, patchVersion: 0)) == "18.1")
        #expect(AppInfo.osVersion(OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 1)) == "17.4.1")
    }

    /// The context's `locale` is written as the wire format shows it
    /// (`pt-BR`), not as Foundation names it (`pt_BR`).
    @Test func theLocaleIsWrittenWithAHyphen() {
        #expect(AppInfo.wireLocale("pt_BR") == "pt-BR")
        #expect(AppInfo.wireLocale("zh_Hant_TW") == "zh-Hant-TW")
        #expect(AppInfo.wireLocale("en") == "en")
        #expect(AppInfo.current().locale == AppInfo.wireLocale(Locale.current.identifier))
    }

    /// The context's `device_model` is the machine name as `uname -m` prints
    /// it: the C string's bytes up to its terminator, no trailing NULs.
    @Test func theDeviceModelIsTheMachineNameWithoutItsTerminator() throws {
        let uname = Process()
        uname.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        uname.arguments = ["uname", "-m"]
        let pipe = Pipe()
        uname.standardOutput = pipe
        try uname.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        uname.waitUntilExit()
        let machine = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!machine.isEmpty)
        #expect(AppInfo.current().deviceModel == machine)
    }
}
