rootProject.name = "ledger"
include("app")
