// What other features may use of duress: who is responding to an officer's SOS, and "Responding".
export { RespondButton, RespondingList } from './responding';
