# Installs the Vigil agent on Windows as a scheduled task that starts at boot and restarts on failure.
#   iwr https://vigil.example.com/downloads/install.ps1 -OutFile install.ps1; .\install.ps1 -Server https://vigil.example.com -Token TOKEN [-Interval 60] [-Name NAME]
param(
  [Parameter(Mandatory = $true)][string]$Server,
  [Parameter(Mandatory = $true)][string]$Token,
  [int]$Interval = 60,
  [string]$Name = ""
)
$ErrorActionPreference = "Stop"

$principal = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Write-Error "Run this script in an administrator PowerShell."
}
$node = (Get-Command node -ErrorAction SilentlyContinue).Source
if (-not $node) { Write-Error "Node.js 20.18 or newer is required (https://nodejs.org/)." }
$found = [version](& $node -p "process.versions.node")
if ($found -lt [version]"20.18.0") { Write-Error "Node.js 20.18 or newer is required (found $(& $node -v))." }

$Server = $Server.TrimEnd("/")
$prefix = Join-Path $env:ProgramFiles "vigil-agent"
$configDir = Join-Path $env:ProgramData "vigil-agent"
New-Item -ItemType Directory -Force -Path $prefix, $configDir | Out-Null
Write-Host "Downloading the agent from $Server ..."
Invoke-WebRequest -UseBasicParsing -Uri "$Server/downloads/vigil-agent.mjs" -OutFile (Join-Path $prefix "vigil-agent.mjs")

$arguments = "`"$(Join-Path $prefix 'vigil-agent.mjs')`" --server $Server --token $Token --interval $Interval --config `"$(Join-Path $configDir 'config.json')`""
if ($Name) { $arguments += " --name `"$Name`"" }
$action = New-ScheduledTaskAction -Execute $node -Argument $arguments -WorkingDirectory $prefix
$trigger = New-ScheduledTaskTrigger -AtStartup
$settings = New-ScheduledTaskSettingsSet -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero) -StartWhenAvailable
$system = New-ScheduledTaskPrincipal -UserId "SYSTEM" -LogonType ServiceAccount -RunLevel Highest
Register-ScheduledTask -TaskName "Vigil agent" -Action $action -Trigger $trigger -Settings $settings -Principal $system -Force | Out-Null
Start-ScheduledTask -TaskName "Vigil agent"
Write-Host "Installed as the scheduled task 'Vigil agent'."
