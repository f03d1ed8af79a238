/**
 * Reading and writing the extension's settings (settingsTable.ts lists
 * them): typed, with the declared default for a value that is missing or of
 * the wrong type.
 */
import * as vscode from 'vscode';
import {
  checkedValue,
  RESTARTING_SETTINGS,
  SECTION,
  SETTINGS,
  type SettingKey,
  type SettingSpec,
  type SettingValue,
} from './settingsTable';

/**
 * The setting's value (for `folder`, when the setting may differ per folder). A setting of the user's alone is read
 * from the user's settings only: whatever a workspace holds for it is never seen here.
 */
export function setting<K extends SettingKey>(key: K, folder?: vscode.Uri): SettingValue<K> {
  const config = vscode.workspace.getConfiguration(SECTION, folder);
  const spec: SettingSpec = SETTINGS[key];
  return checkedValue(key, spec.scope === 'application' ? config.inspect<unknown>(key)?.globalValue : config.get(key));
}

/** The setting's value in each scope (user, workspace, folder), for settings that merge them. */
export function settingScopes(key: SettingKey, folder?: vscode.Uri) {
  return vscode.workspace.getConfiguration(SECTION, folder).inspect<unknown>(key);
}

/** Sets it for the user. */
export async function setUserSetting<K extends SettingKey>(key: K, value: SettingValue<K>): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

export function affectsSettings(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SECTION);
}

export function affectsSetting(event: vscode.ConfigurationChangeEvent, key: SettingKey): boolean {
  return event.affectsConfiguration(`${SECTION}.${key}`);
}

/** Opens the Settings editor at the setting (`key` in this extension's section). */
export async function openSetting(key: SettingKey): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${key}`);
}

/** Whether the change touches a setting the running agents were started with. */
export function restartsAgents(event: vscode.ConfigurationChangeEvent): boolean {
  return RESTARTING_SETTINGS.some((key) => affectsSetting(event, key));
}
