/** The spec's shared widgets (section 2, 5 and 9), in one place: what pages import from the kit. */
export { Avatar } from './avatar';
export type { AvatarSize } from './avatar';
export { Badge } from './badge';
export { Button, LinkButton, buttonClassName } from './button';
export type { ButtonSize } from './button';
export { useConfirm } from './confirm-dialog';
export { Dialog, PromptDialog } from './dialog';
export { Dropdown } from './dropdown';
export { Icon } from './icon';
export { Menu, MenuItem } from './menu';
export { Spinner } from './spinner';
export { TextInput } from './text-input';
export type { TextInputProps } from './text-input';
export { Textarea } from './textarea';
export { toast, ToastHost } from './toast';
