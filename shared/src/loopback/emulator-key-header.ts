/** The header that carries an emulator's key, when it was started with one (the embedded emulators are). */
export const EMULATOR_KEY_HEADER = "x-emulator-key";
