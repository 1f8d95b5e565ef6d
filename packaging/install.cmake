# `make install` / `cmake --install`: the binary, the LD_AUDIT library when the build has it, the
# man page and the shell completions. PREFIX and DESTDIR as usual (the Makefile passes them).
include(GNUInstallDirs)
install(TARGETS cudx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# `cudx run`'s audit library (src/audit/, target cudx_audit): private to cudx, so not on the
# loader's path, in PREFIX/lib/cudx/
if(TARGET cudx_audit)
  install(TARGETS cudx_audit LIBRARY DESTINATION lib/cudx RUNTIME DESTINATION lib/cudx)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/man/cudx.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
set(CUDX_BASH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions CACHE STRING
    "where bash-completion loads completions from")
# zsh's own site-functions; Debian's zsh reads share/zsh/vendor-completions (debian/rules says so)
set(CUDX_ZSH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/zsh/site-functions CACHE STRING
    "a directory of zsh's fpath")
set(CUDX_FISH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d CACHE STRING
    "where fish loads vendor completions from")
install(FILES ${PROJECT_SOURCE_DIR}/packaging/completions/cudx.bash DESTINATION ${CUDX_BASH_COMPLETION_DIR}
        RENAME cudx)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/completions/_cudx DESTINATION ${CUDX_ZSH_COMPLETION_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/packaging/completions/cudx.fish DESTINATION ${CUDX_FISH_COMPLETION_DIR})

# The textfile helper, and the systemd units that run it (installed when CUDX_SYSTEMD_UNIT_DIR is
# set: debian/rules gives /lib/systemd/system; `make install` leaves units to the admin).
set(CUDX_LIBEXEC_DIR ${CMAKE_INSTALL_PREFIX}/lib/cudx)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/packaging/cudx-textfile DESTINATION lib/cudx)
set(CUDX_SYSTEMD_UNIT_DIR "" CACHE STRING "where to install the systemd units (empty: not installed)")
configure_file(${PROJECT_SOURCE_DIR}/packaging/systemd/cudx-prometheus.service.in
               ${CMAKE_BINARY_DIR}/packaging/cudx-prometheus.service @ONLY)
if(CUDX_SYSTEMD_UNIT_DIR)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/cudx-prometheus.service
                ${PROJECT_SOURCE_DIR}/packaging/systemd/cudx-prometheus.timer
          DESTINATION ${CUDX_SYSTEMD_UNIT_DIR})
endif()
