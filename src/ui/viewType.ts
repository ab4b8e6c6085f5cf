/** The panel's view type, registered by the plugin and used to find its leaves. */
export const VIEW_TYPE_DISCOVER = "discover-chat-view";
