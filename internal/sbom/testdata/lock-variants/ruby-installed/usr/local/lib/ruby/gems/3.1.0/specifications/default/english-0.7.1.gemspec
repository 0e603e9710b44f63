# -*- encoding: utf-8 -*-
# stub: english 0.7.1 ruby lib

Gem::Specification.new do |s|
  s.name = "english".freeze
  s.version = "0.7.1"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/English", "source_code_uri" => "https://github.com/ruby/English" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.date = "2026-11-21"
  s.description = "Require 'English.rb' to reference global variables with less cryptic names.".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["English.rb".freeze]
  s.homepage = "https://github.com/ruby/English".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.3.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Require 'English.rb' to reference global variables with less cryptic names.".freeze
end
